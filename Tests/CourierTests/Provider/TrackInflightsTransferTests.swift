import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite {
    /// `trackInflights` joins only what is truly the same request, and each caller's progress is
    /// its own. Nested in the temporary-files suite: its downloads pass through Courier's files.
    @Suite("trackInflights with transfers")
    struct TrackInflightsTransferTests {
        /// A server that holds every reply until `expected` requests have arrived (or 10 s pass),
        /// so that concurrent requests overlap, then answers with `reply`.
        private static func server(
            expecting expected: Int, reply: @escaping @Sendable (ServerRequest) -> ServerReply = { _ in .text("ok") }
        ) throws -> LoopbackServer {
            let arrived = Locked(0)
            return try LoopbackServer { request in
                arrived.withLock { $0 += 1 }
                let deadline = Date().addingTimeInterval(10)
                while arrived.value < expected && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
                return reply(request)
            }
        }

        private static func provider() -> Provider<TransferTarget> {
            Provider<TransferTarget>(callbackQueue: DispatchQueue(label: "inflights"), trackInflights: true)
        }

        @Test("two PUTs of different files to one URL are both sent")
        func differentFilesAreSent() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (first, firstData) = try Scratch.file(in: folder, name: "a.bin", size: 3_000)
            let (second, secondData) = try Scratch.file(in: folder, name: "b.bin", size: 5_000)
            let server = try Self.server(expecting: 2)
            let provider = Self.provider()
            func put(_ file: URL) -> TransferTarget {
                TransferTarget(baseURL: server.baseURL, path: "/put", method: .put, task: .uploadFile(file))
            }

            async let one = provider.request(put(first)).statusCode
            async let two = provider.request(put(second)).statusCode
            #expect(try await [one, two] == [200, 200])

            #expect(Set(server.requests.map(\.body)) == [firstData, secondData])
        }

        @Test("two PUTs of the same file join: one upload, two successes")
        func sameFileJoins() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (file, data) = try Scratch.file(in: folder, name: "a.bin", size: 3_000)
            let release = CallRecorder()
            let server = try LoopbackServer { _ in
                let waited = DispatchSemaphore(value: 0)
                Task {
                    _ = await release.wait(for: .send)
                    waited.signal()
                }
                _ = waited.wait(timeout: .now() + 10)
                return .text("ok")
            }
            let provider = Self.provider()
            let target = TransferTarget(baseURL: server.baseURL, path: "/put", method: .put, task: .uploadFile(file))

            async let one = provider.request(target).statusCode
            #expect(await waitUntil { provider.inflightCallers(for: target) == 1 })
            async let two = provider.request(target).statusCode
            #expect(await waitUntil { provider.inflightCallers(for: target) == 2 })
            release.record(.send)
            #expect(try await [one, two] == [200, 200])

            #expect(server.requests.map(\.body) == [data])
            #expect(!provider.isInFlight(target))
        }

        @Test("two downloads to different destinations are both sent, and both files written")
        func downloadsNeverJoin() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let server = try Self.server(expecting: 2)
            let provider = Self.provider()
            func download(to name: String) -> TransferTarget {
                let destination = folder.appendingPathComponent(name)
                return TransferTarget(
                    baseURL: server.baseURL, path: "/file", method: .get,
                    task: .downloadDestination { _, _ in (destination, []) })
            }

            async let one = provider.request(download(to: "one.txt"))
            async let two = provider.request(download(to: "two.txt"))
            let responses = try await [one, two]

            #expect(server.requests.count == 2)
            #expect(responses.map { $0.fileURL?.lastPathComponent } == ["one.txt", "two.txt"])
            for name in ["one.txt", "two.txt"] {
                #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == Data("ok".utf8))
            }
        }

        @Test("two identical POSTs are two actions: both are sent")
        func postsNeverJoin() async throws {
            let server = try Self.server(expecting: 2)
            let provider = Self.provider()
            let target = TransferTarget(
                baseURL: server.baseURL, path: "/orders", method: .post, task: .requestData(Data("{}".utf8)))

            async let one = provider.request(target).statusCode
            async let two = provider.request(target).statusCode
            #expect(try await [one, two] == [200, 200])
            #expect(server.requests.count == 2)
        }

        @Test("a caller that cancels gets no progress after its completion; the one still joined gets the rest")
        func progressIsPerCaller() async throws {
            let release = CallRecorder()
            let body = Data(repeating: 7, count: 400_000)
            let server = try LoopbackServer { _ in
                // Half the body, then wait for the test, then the rest.
                var reply = ServerReply(body: body)
                let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n"
                let waited = DispatchSemaphore(value: 0)
                Task {
                    _ = await release.wait(for: .send)
                    waited.signal()
                }
                reply.rawSteps = [.send(Data(head.utf8) + body.prefix(200_000))]
                _ = waited.wait(timeout: .now() + 10)
                reply.rawSteps?.append(.send(body.suffix(200_000)))
                return reply
            }
            let provider = Self.provider()
            let target = TransferTarget(baseURL: server.baseURL, path: "/big", method: .get, task: .requestPlain)
            let events = Locked<[String]>([])
            let done = CallRecorder()
            @Sendable func log(_ event: String) { events.withLock { $0.append(event) } }

            let first = provider.request(
                target, progress: { _ in log("first progress") },
                completion: { result in
                    log("first done \(result.failure?.isCancellation == true ? "cancelled" : "other")")
                    done.record(.send)
                })
            #expect(await waitUntil { provider.inflightCallers(for: target) == 1 })
            provider.request(
                target, progress: { _ in log("second progress") },
                completion: { result in
                    log("second done \((try? result.get()) == nil ? "failed" : "ok")")
                    done.record(.send)
                })
            #expect(await waitUntil { provider.inflightCallers(for: target) == 2 })
            first.cancel()
            #expect(await done.wait(for: .send))
            release.record(.send)
            #expect(await done.wait(for: .send, count: 2))

            let timeline = events.value
            let firstDone = try #require(timeline.firstIndex(of: "first done cancelled"), "\(timeline)")
            #expect(!timeline[firstDone...].contains("first progress"), "\(timeline)")
            #expect(timeline.last == "second done ok")
            #expect(timeline[firstDone...].contains("second progress"), "\(timeline)")
            #expect(server.requests.count == 1)
        }
    }
}
