import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

/// A write of the outbox's tests: `Codable`, so that it can wait on disk.
struct Note: TargetType, Codable {
    var origin: URL
    var id: Int
    var baseURL: URL { origin }
    var path: String { "/notes/\(id)" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var timeoutInterval: TimeInterval? { 2 }
}

extension SerializedSuite {
    /// The durable outbox over AsyncHTTPClient: the same guarantees as over URLSession, and the
    /// answer's body read only as far as an outcome keeps it.
    @Suite("Outbox on AsyncHTTPClient")
    struct OutboxTests {
        /// A folder for one test's outbox.
        static func folder() -> URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("ahc-outbox-\(UUID().uuidString)")
        }

        static func options() -> OutboxOptions {
            var options = OutboxOptions()
            options.delay = 0.01
            options.maximumDelay = 0.05
            return options
        }

        /// The next `count` outcomes of `outbox`, or fewer after `seconds`.
        static func outcomes(_ outbox: Outbox<Note>, _ count: Int, seconds: Double = 20) async -> [OutboxOutcome<Note>]
        {
            await within(seconds) {
                var received: [OutboxOutcome<Note>] = []
                for await outcome in outbox.outcomes {
                    received.append(outcome)
                    if received.count == count { break }
                }
                return received
            } ?? []
        }

        @Test("20 entries refused once each (503): applied once each, in order, each with its one key")
        func refusalsInOrder() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let tries = TestBox<[String: Int]>([:])
            let applied = TestBox<[String]>([])
            let server = try LoopbackServer { request in
                let key = request.header("Idempotency-Key") ?? ""
                let count = tries.modify { tries -> Int in
                    tries[key, default: 0] += 1
                    return tries[key, default: 0]
                }
                guard count > 1 else { return ServerReply(status: 503) }
                applied.modify { $0.append(request.path) }
                return ServerReply(status: 201, body: Data("{}".utf8))
            }
            defer { server.stop() }
            let provider = Provider<Note>(transport: AsyncHTTPClientTransport())
            let outbox = try provider.outbox(named: "notes", in: folder, options: Self.options())
            var keys: [String] = []
            for id in 0..<20 {
                keys.append(try await outbox.enqueue(Note(origin: server.baseURL, id: id)).idempotencyKey)
            }
            let outcomes = await Self.outcomes(outbox, 20)
            #expect(outcomes.map(\.kind) == Array(repeating: .delivered, count: 20))
            #expect(applied.value == (0..<20).map { "/notes/\($0)" })
            #expect(keys.allSatisfy { tries.value[$0] == 2 })
            await outbox.close()
        }

        @Test(
            "a 2xx answer of 300 MiB: the outcome comes with the start of the body, marked cut, before the rest is sent"
        )
        func endlessAnswer() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let outcomeSeen = DispatchSemaphore(value: 0)
            let gaveUp = TestBox(false)
            let chunk = Data(repeating: 0x61, count: 1 << 20)
            let server = try LoopbackServer { _ in
                .raw([
                    .send(Data("HTTP/1.1 201 Created\r\nContent-Length: \(300 << 20)\r\n\r\n".utf8)),
                    .sendRepeated(chunk, count: 2),
                    .run { if outcomeSeen.wait(timeout: .now() + 10) == .timedOut { gaveUp.modify { $0 = true } } },
                    .sendRepeated(chunk, count: 298),
                ])
            }
            defer { server.stop() }
            var options = Self.options()
            options.maximumStoredBody = 1_000
            let outbox = try Provider<Note>(transport: AsyncHTTPClientTransport())
                .outbox(named: "notes", in: folder, options: options)
            _ = try await outbox.enqueue(Note(origin: server.baseURL, id: 1))
            let outcome = try #require(await Self.outcomes(outbox, 1, seconds: 30).first)
            outcomeSeen.signal()
            #expect(!gaveUp.value)
            #expect(outcome.kind == .delivered)
            #expect(outcome.body == chunk.prefix(1_000))
            #expect(outcome.isBodyTruncated)
            await outbox.close()
        }

        @Test("a 2xx head, then a byte every 0.4 s: the try ends at the target's 2 s limit, delivered and cut")
        func trickle() async throws {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let server = try LoopbackServer { request in
                guard request.path == "/notes/1" else { return ServerReply(status: 201) }
                var steps: [ServerReply.RawStep] = [
                    .send(Data("HTTP/1.1 201 Created\r\nContent-Length: 1000\r\n\r\n".utf8))
                ]
                for _ in 0..<40 { steps += [.send(Data("x".utf8)), .pause(0.4)] }
                return .raw(steps)
            }
            defer { server.stop() }
            var options = Self.options()
            options.maximumStoredBody = 50
            options.maximumAttempts = 1
            let outbox = try Provider<Note>(transport: AsyncHTTPClientTransport())
                .outbox(named: "notes", in: folder, options: options)
            let started = ContinuousClock.now
            _ = try await outbox.enqueue(Note(origin: server.baseURL, id: 1))
            _ = try await outbox.enqueue(Note(origin: server.baseURL, id: 2))
            let outcomes = await Self.outcomes(outbox, 2, seconds: 30)
            #expect(outcomes.map(\.kind) == [.delivered, .delivered])
            #expect(outcomes.first.map { $0.isBodyTruncated && $0.attempts == 1 && $0.body.count < 50 } == true)
            #expect(started.duration(to: .now) < .seconds(8))
            await outbox.close()
        }
    }
}
