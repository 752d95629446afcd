import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One hostile server behaviour and what Courier must make of it.
struct Fault: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable, Equatable {
        case transport(TransportFailure.Kind)
        case status(Int)
        case success
    }

    let name: String
    let reply: @Sendable (ServerRequest, URL) -> ServerReply
    let expected: Expected
    /// The longest the request may take, with room for a loaded machine.
    let bound: TimeInterval
    /// The target's per-attempt timeout.
    var timeout: TimeInterval? = nil

    var testDescription: String { name }

    static let all: [Fault] = [
        Fault(
            name: "close before the status line", reply: { _, _ in .raw("HTTP/1.") },
            expected: .transport(.connectionLost), bound: 5),
        Fault(
            name: "close mid-body", reply: { _, _ in .raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc") },
            expected: .transport(.connectionLost), bound: 5),
        Fault(
            name: "empty reply", reply: { _, _ in .closeConnection }, expected: .transport(.connectionLost), bound: 5),
        Fault(
            name: "malformed status line", reply: { _, _ in .raw("HTTX/9 banana\r\n\r\n") },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "malformed headers",
            reply: { _, _ in .raw("HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 2\r\n\r\nok") },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "headers over the size limit",
            reply: { _, _ in
                .raw(
                    "HTTP/1.1 200 OK\r\n"
                        + (0..<400).map { "X-H\($0): \(String(repeating: "a", count: 1000))\r\n" }.joined()
                        + "Content-Length: 2\r\n\r\nok")
            },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "one 256 KiB header line",
            reply: { _, _ in
                .raw(
                    "HTTP/1.1 200 OK\r\nX-Big: \(String(repeating: "a", count: 256 << 10))\r\nContent-Length: 2\r\n\r\nok"
                )
            },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "not HTTP at all", reply: { _, _ in .raw("SSH-2.0-OpenSSH_9.2\r\n") },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "an HTTP/2 status line on HTTP/1.1",
            reply: { _, _ in .raw("HTTP/2 200\r\nContent-Length: 2\r\n\r\nok") },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "invalid chunk size",
            reply: { _, _ in .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n") },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "chunked body cut",
            reply: { _, _ in .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc") },
            expected: .transport(.connectionLost), bound: 5),
        Fault(
            name: "gzip body that is not gzip",
            reply: { _, _ in
                .raw("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\n0123456789")
            },
            expected: .transport(.badServerResponse), bound: 5),
        Fault(
            name: "stall after headers",
            reply: { _, _ in .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)), .stall]) },
            expected: .transport(.timedOut), bound: 3, timeout: 0.5),
        Fault(
            name: "trickling body past the deadline",
            reply: { _, _ in
                .raw(
                    [.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n".utf8))]
                        + (0..<40).flatMap { _ in [ServerReply.RawStep.send(Data("x".utf8)), .pause(0.1)] })
            },
            expected: .transport(.timedOut), bound: 3, timeout: 0.5),
        Fault(
            name: "401 with a Basic challenge and no credential",
            reply: { _, _ in ServerReply(status: 401, headers: ["WWW-Authenticate": #"Basic realm="x""#]) },
            expected: .status(401), bound: 5),
        Fault(
            name: "redirect loop",
            reply: { request, _ in ServerReply(status: 302, headers: ["Location": request.path]) },
            expected: .transport(.tooManyRedirects), bound: 10),
        Fault(
            name: "307 redirect loop",
            reply: { request, _ in ServerReply(status: 307, headers: ["Location": request.path]) },
            expected: .transport(.tooManyRedirects), bound: 10),
        Fault(
            name: "cross-origin redirect",
            reply: { request, base in
                request.path == "/fault"
                    ? ServerReply(status: 302, headers: ["Location": "http://localhost:\(base.port!)/end"])
                    : .json("{}")
            }, expected: .success, bound: 5),
        Fault(
            name: "gzip body with a wrong length",
            reply: { _, _ in .raw("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\nnotgzipata")
            },
            expected: .transport(.badServerResponse), bound: 5),
    ]
}

extension TemporaryFilesSuite {
    /// Hostile servers: each fault ends in its typed outcome within its bound, the completion is
    /// called exactly once, and no temporary file is left, for data requests and downloads alike.
    @Suite("Fault injection")
    struct FaultInjectionTests {
        @Test("each fault has its typed outcome, once, in time, leaving nothing", arguments: Fault.all)
        func fault(_ fault: Fault) async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let base = Locked<URL?>(nil)
            let server = try LoopbackServer { request in fault.reply(request, base.withLock { $0 }!) }
            base.withLock { $0 = server.baseURL }
            let before = Scratch.courierTemporaryFiles()

            for download in [false, true] {
                var target = FaultTarget(baseURL: server.baseURL, timeout: fault.timeout)
                if download {
                    let destination = folder.appendingPathComponent("out.bin")
                    target.task = .downloadDestination { _, _ in (destination, [.removePreviousFile]) }
                }
                let (result, calls, elapsed) = await Self.run(target)
                print(
                    "fault: \(fault.name) | \(download ? "download" : "data") | \(Self.outcome(result).map { "\($0)" } ?? "\(result)") | \(Int(elapsed * 1000)) ms"
                )
                #expect(calls == 1, "\(fault.name): completion called \(calls) times")
                #expect(elapsed < fault.bound, "\(fault.name): took \(elapsed) s")
                #expect(Self.outcome(result) == fault.expected, "\(fault.name) (download: \(download)): \(result)")
            }
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }

        @Test("connection refused is .cannotConnect")
        func connectionRefused() async throws {
            let server = try LoopbackServer { _ in ServerReply() }
            let url = server.baseURL
            server.stop()
            #expect(await waitUntil { (try? Data(contentsOf: url)) == nil })
            let (result, calls, _) = await Self.run(FaultTarget(baseURL: url))
            #expect(calls == 1)
            #expect(Self.outcome(result) == .transport(.cannotConnect))
        }

        /// Sends `target` with the completion API; returns the result, how many times the
        /// completion ran (after a later barrier on its queue), and how long it took.
        static func run(_ target: FaultTarget) async -> (Result<Response, CourierError>, Int, TimeInterval) {
            let queue = DispatchQueue(label: "fault")
            let results = Locked<[Result<Response, CourierError>]>([])
            let done = CallRecorder()
            let start = Date()
            Provider<FaultTarget>().request(target, callbackQueue: queue) { result in
                results.withLock { $0.append(result) }
                done.record(.send)
            }
            _ = await done.wait(for: .send, timeout: 30)
            let elapsed = Date().timeIntervalSince(start)
            await withCheckedContinuation { barrier in queue.async { barrier.resume() } }
            let all = results.value
            return (all.first ?? .failure(.cancelled), all.count, elapsed)
        }

        static func outcome(_ result: Result<Response, CourierError>) -> Fault.Expected? {
            switch result {
            case .success: return .success
            case .failure(.statusCode(let response)): return .status(response.statusCode)
            case .failure(let error):
                return (error.underlyingError as? TransportFailure).map { .transport($0.kind) }
            }
        }
    }
}

/// A GET that only 2xx satisfies, with an optional per-attempt timeout.
struct FaultTarget: TargetType {
    var baseURL: URL
    var path: String = "/fault"
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]? = nil
    var timeout: TimeInterval? = nil
    var validationType: ValidationType { .successCodes }
    var timeoutInterval: TimeInterval? { timeout }
}
