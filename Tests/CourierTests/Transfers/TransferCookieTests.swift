import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every request of a resumable transfer passes the provider's cookie jar and trust gate, as a
/// redirect hop does: each answer's `Set-Cookie` is stored, each request carries the cookies of
/// its own URL, and a host the trust policy refuses is refused there too.
@Suite("Transfer cookies and trust")
struct TransferCookieTests {
    /// The `Cookie` field of each request `server` received, as `METHOD /path: cookie`.
    private static func cookies(_ server: LoopbackServer) -> [String] {
        server.requests.map { "\($0.method) \($0.path): \($0.header("Cookie") ?? "-")" }
    }

    @Test("a creation answered with a sticky-session cookie: the HEAD and every append carry it")
    func stickySessionFromCreation() async throws {
        let folder = try Scratch.folder()
        let (file, data) = try Scratch.file(in: folder, name: "upload.bin", size: 3_000)
        let uploads = ResumableUploadServer()
        uploads.maximumAppendSize = 1_000
        uploads.failNextAppend(after: 500, status: 503)
        // The creation's answer (the only one) sets the balancer's sticky-session cookie.
        let server = try LoopbackServer { request in
            let reply = uploads.reply(to: request)
            guard request.method == "POST" else { return reply }
            return ServerReply(
                status: 201,
                headers: [
                    "Location": "/uploads/1", "Upload-Offset": "0", "Upload-Draft-Interop-Version": "6",
                    "Set-Cookie": "sticky=node-7; Path=/",
                ])
        }
        defer { server.stop() }
        let target = TransferTarget(baseURL: server.baseURL, path: "files", method: .post, task: .requestPlain)
        let provider = Provider<TransferTarget>(
            interceptor: Retrier { _, _, context in context.attempt == 1 ? .retry : .doNotRetry },
            options: ProviderOptions(cookies: CookieJar()))

        _ = try await provider.upload(target, resumingFrom: file, stateDirectory: folder.appendingPathComponent("s"))

        #expect(uploads.completed == [data])
        #expect(
            Self.cookies(server) == [
                "OPTIONS /files: -", "POST /files: -", "PATCH /uploads/1: sticky=node-7",
                "HEAD /uploads/1: sticky=node-7", "PATCH /uploads/1: sticky=node-7",
                "PATCH /uploads/1: sticky=node-7", "PATCH /uploads/1: sticky=node-7",
            ])
    }

    @Test("an upload resource on another origin gets that origin's cookies, never the first's")
    func resourceOnAnotherOrigin() async throws {
        let folder = try Scratch.folder()
        let (file, data) = try Scratch.file(in: folder, name: "upload.bin", size: 3_000)
        let uploads = ResumableUploadServer()
        uploads.maximumAppendSize = 1_000
        let back = try LoopbackServer { request in
            var reply = uploads.reply(to: request)
            if request.header("Upload-Offset") == "0" { reply.headers["Set-Cookie"] = "back=2; Path=/" }
            return reply
        }
        defer { back.stop() }
        let backPort = back.port
        // The front creates the upload on the back server and names it there, on another host.
        let front = try LoopbackServer { request in
            if request.method == "OPTIONS" {
                return ServerReply(status: 204, headers: ["Upload-Limit": "min-size=0, max-append-size=1000"])
            }
            _ = uploads.reply(to: request)
            return ServerReply(
                status: 201,
                headers: [
                    "Location": "http://localhost:\(backPort)/uploads/1", "Upload-Offset": "0",
                    "Set-Cookie": "front=1; Path=/",
                ])
        }
        defer { front.stop() }
        let jar = CookieJar()
        jar.store(["early=3; Path=/"], from: URL(string: "http://localhost:\(backPort)/")!)
        let target = TransferTarget(baseURL: front.baseURL, path: "files", method: .post, task: .requestPlain)
        let provider = Provider<TransferTarget>(options: ProviderOptions(cookies: jar))

        _ = try await provider.upload(target, resumingFrom: file, stateDirectory: folder.appendingPathComponent("s"))

        #expect(uploads.completed == [data])
        #expect(Self.cookies(front) == ["OPTIONS /files: -", "POST /files: -"])
        #expect(
            Self.cookies(back) == [
                "PATCH /uploads/1: early=3", "PATCH /uploads/1: early=3; back=2",
                "PATCH /uploads/1: early=3; back=2",
            ])
        #expect(jar.headerValue(for: front.baseURL) == "front=1")
    }

    @Test("a download piece's Set-Cookie is stored though its body was cut: the retry's piece carries it")
    func downloadPieceCookie() async throws {
        let folder = try Scratch.folder()
        let (_, data) = try Scratch.file(in: folder, name: "source", size: 200_000)
        let resource = RangedResource(data)
        resource.cutNext(after: 50_000)
        let server = try LoopbackServer { request in
            var reply = resource.reply(to: request)
            if request.header("Cookie") == nil { reply.headers["Set-Cookie"] = "sid=piece-1; Path=/" }
            return reply
        }
        defer { server.stop() }
        let target = TransferTarget(baseURL: server.baseURL, path: "file", method: .get, task: .requestPlain)
        let provider = Provider<TransferTarget>(
            interceptor: RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.001, jitter: .none),
            options: ProviderOptions(cookies: CookieJar()))
        let destination = folder.appendingPathComponent("download.bin")

        _ = try await provider.download(target, resumingInto: destination)

        #expect(try Data(contentsOf: destination) == data)
        #expect(resource.rangesAsked == [nil, "bytes=50000-"])
        #expect(Self.cookies(server) == ["GET /file: -", "GET /file: sid=piece-1"])
    }

    @Test("an upload resource on a host the trust policy pins, in plain HTTP, is refused by the gate unsent")
    func trustGateAtTheResource() async throws {
        let folder = try Scratch.folder()
        let (file, _) = try Scratch.file(in: folder, name: "upload.bin", size: 3_000)
        let uploads = ResumableUploadServer()
        let back = try LoopbackServer { uploads.reply(to: $0) }
        defer { back.stop() }
        let backPort = back.port
        let front = try LoopbackServer { request in
            if request.method == "OPTIONS" { return ServerReply(status: 204, headers: ["Upload-Limit": "min-size=0"]) }
            _ = uploads.reply(to: request)
            return ServerReply(
                status: 201, headers: ["Location": "http://localhost:\(backPort)/uploads/1", "Upload-Offset": "0"])
        }
        defer { front.stop() }
        var policy = TrustPolicy()
        try policy.pin("localhost", to: [TrustPolicyTests.abc, TrustPolicyTests.backup])
        let target = TransferTarget(baseURL: front.baseURL, path: "files", method: .post, task: .requestPlain)
        let provider = Provider<TransferTarget>(options: ProviderOptions(trust: policy))

        let error = await #expect(throws: CourierError.self) {
            try await provider.upload(target, resumingFrom: file, stateDirectory: folder.appendingPathComponent("s"))
        }

        #expect(error?.underlyingError as? TrustFailure == .cleartext(host: "localhost"))
        #expect(front.requests.map(\.method) == ["OPTIONS", "POST"])
        #expect(back.requests.isEmpty)
    }
}
