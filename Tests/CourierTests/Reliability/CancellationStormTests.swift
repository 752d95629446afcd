import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite {
    /// 1,000 requests — stubbed and sent, plain, JSON, upload, download and redirected (302, and 307
    /// which Courier follows itself), through an adapter
    /// and a retrier that await, with retries after delays — each cancelled at a random moment.
    /// Every completion runs exactly once; every failure is the cancellation error; nothing is left
    /// in flight or in the temporary folder.
    @Suite("Cancellation storm")
    struct CancellationStormTests {
        struct StormTarget: TargetType {
            enum Kind: CaseIterable { case plain, json, upload, download, redirect, redirect307 }
            let baseURL: URL
            let kind: Kind
            let index: Int
            let file: URL
            let folder: URL

            var path: String {
                switch kind {
                case .redirect: "/redirect/302/\(index)"
                case .redirect307: "/redirect/307/\(index)"
                default: "/storm/\(index)"
                }
            }
            var method: HTTPMethod { [.plain, .download, .redirect].contains(kind) ? .get : .post }
            var task: HTTPTask {
                switch kind {
                case .plain, .redirect: .requestPlain
                case .json, .redirect307: .requestJSONEncodable(["index": index])
                case .upload: .uploadFile(file)
                case .download:
                    .downloadDestination { [folder, index] _, _ in (folder.appendingPathComponent("\(index).bin"), []) }
                }
            }
            var headers: [String: String]? { nil }
            var validationType: ValidationType { .successCodes }
        }

        @Test("1,000 requests cancelled at random points")
        func storm() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (file, _) = try Scratch.file(in: folder, name: "upload.bin", size: 64 * 1024)
            // Every first attempt is refused with a 503, so that most requests go through a retry delay.
            let seen = Locked<Set<String>>([])
            let server = try LoopbackServer { request in
                let parts = request.path.split(separator: "/")
                if parts.first == "redirect", parts.count == 3 {
                    return ServerReply(status: Int(parts[1]) ?? 302, headers: ["Location": "/storm/\(parts[2])"])
                }
                let first = seen.withLock { $0.insert(request.path).inserted }
                return first ? ServerReply(status: 503) : ServerReply(body: Data(repeating: 1, count: 32 * 1024))
            }
            let transport = URLSessionTransport()
            let interceptor = Interceptor(
                adapters: [
                    Adapter { request, context in
                        if context.attempt == 1 { try await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000)) }
                        return request
                    }
                ],
                retriers: [
                    Retrier { _, error, context in
                        try? await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
                        return error.response?.statusCode == 503 && context.attempt == 1
                            ? .retryWithDelay(0.01) : .doNotRetry
                    }
                ])
            let stubSeen = Locked<Set<Int>>([])
            let provider = Provider<StormTarget>(
                endpointClosure: { target in
                    Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                        stubSeen.withLock { $0.insert(target.index).inserted }
                            ? .networkResponse(503, Data()) : .networkResponse(200, Data("{}".utf8))
                    })
                },
                stubClosure: { target in
                    target.index % 2 == 0 ? .never : target.index % 4 == 1 ? .immediate : .delayed(seconds: 0.005)
                },
                callbackQueue: DispatchQueue(label: "storm", attributes: .concurrent), transport: transport,
                plugins: [RecordingPlugin("P1", recorder: CallRecorder())], interceptor: interceptor)
            let before = Scratch.courierTemporaryFiles()
            let count = 1000
            let completions = Locked([Int](repeating: 0, count: count))
            let failures = Locked<[String]>([])
            let finished = CallRecorder()

            for index in 0..<count {
                // Every kind, sent and stubbed: the stub choice below goes by the index's parity.
                let kind = StormTarget.Kind.allCases[(index / 2) % StormTarget.Kind.allCases.count]
                let target = StormTarget(baseURL: server.baseURL, kind: kind, index: index, file: file, folder: folder)
                let call = provider.request(target) { result in
                    completions.withLock { $0[index] += 1 }
                    if case .failure(let error) = result, !error.isCancellation {
                        failures.withLock { $0.append("\(index): \(error)") }
                    }
                    finished.record(.send)
                }
                let delay = UInt64.random(in: 0...20_000_000)
                Task {
                    try? await Task.sleep(nanoseconds: delay)
                    call.cancel()
                }
            }

            #expect(await finished.wait(for: .send, count: count, timeout: 60))
            await Task.yield()
            #expect(
                completions.value.allSatisfy { $0 == 1 },
                "completions: \(Dictionary(grouping: completions.value, by: { $0 }).mapValues(\.count))")
            #expect(failures.value.isEmpty, "\(failures.value.prefix(5))")
            #expect(await waitUntil { transport.activeRequestCount == 0 })
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }

        @Test("300 redirects (302, and 307 with a body) cancelled within 4 ms or mid-redirect never stop the process")
        func redirectsCancelled() async throws {
            let server = try LoopbackServer { request in
                guard request.path.hasPrefix("/redirect/") else { return ServerReply(body: Data("done".utf8)) }
                return ServerReply(status: request.method == "GET" ? 302 : 307, headers: ["Location": "/final"])
            }
            defer { server.stop() }
            // Every third request is cancelled while URLSession waits for the redirect's answer.
            let calls = Locked<[Int: any Cancellable]>([:])
            let policy = RedirectPolicy.modify { request, response in
                if let index = response.url.flatMap({ Int($0.lastPathComponent) }), index % 3 == 0 {
                    calls.withLock { $0[index] }?.cancel()
                }
                return request
            }
            let transport = URLSessionTransport()
            let provider = Provider<OrderTarget>(
                callbackQueue: DispatchQueue(label: "redirect-storm", attributes: .concurrent),
                transport: transport, options: ProviderOptions(redirects: policy))
            let count = 300
            let completions = Locked([Int](repeating: 0, count: count))
            let finished = CallRecorder()
            for index in 0..<count {
                let post = index % 2 == 1
                let target = OrderTarget(
                    baseURL: server.baseURL, path: "/redirect/\(index)", method: post ? .post : .get,
                    task: post ? .requestData(Data("body \(index)".utf8)) : .requestPlain)
                let call = calls.withLock { calls in
                    let call = provider.request(target) { _ in
                        completions.withLock { $0[index] += 1 }
                        finished.record(.send)
                    }
                    calls[index] = call
                    return call
                }
                guard index % 3 != 0 else { continue }
                let delay = UInt64.random(in: 0...4_000_000)
                Task {
                    try? await Task.sleep(nanoseconds: delay)
                    call.cancel()
                }
            }
            #expect(await finished.wait(for: .send, count: count, timeout: 60))
            #expect(completions.value.allSatisfy { $0 == 1 })
            #expect(await waitUntil { transport.activeRequestCount == 0 })
        }
    }
}
