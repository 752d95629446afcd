import CoreMetrics
import Courier
import CourierObservability
import CourierTesting
import Foundation
import MetricsTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An outbox seen by MetricsPlugin: entries taken, waits and outcomes counted by kind, the
/// entries waiting and the oldest one's age as gauges.
@Suite("Outbox observation", .timeLimit(.minutes(1)))
struct OutboxObservationTests {
    /// Chores an app must not lose: `Codable`, as an outbox's targets are.
    enum Chores: TargetType, Codable {
        case done(id: Int)
        var baseURL: URL { URL(string: "https://chores.example")! }
        var path: String {
            switch self {
            case .done(let id): "/chores/\(id)/done"
            }
        }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// Statuses handed out in turn, then 201.
    final class Answers: @unchecked Sendable {
        // @unchecked: `statuses` is read and written under `lock` only.
        private let lock = NSLock()
        private var statuses: [Int]

        init(_ statuses: [Int]) { self.statuses = statuses }

        func next() -> Int { lock.withLock { statuses.isEmpty ? 201 : statuses.removeFirst() } }
    }

    @Test("counted: 2 taken, 1 wait, 1 delivered and 1 rejected; the gauges end at 0 waiting")
    func metrics() async throws {
        let metrics = TestMetrics()
        let answers = Answers([503, 201, 422])
        let provider = Provider<Chores>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .networkResponse(answers.next(), Data("{}".utf8))
                })
            },
            stubClosure: Provider.immediatelyStub, plugins: [MetricsPlugin(factory: metrics)])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = OutboxOptions()
        options.delay = 0.01
        let outbox = try provider.outbox(named: "chores", in: folder, options: options)
        try await outbox.enqueue(.done(id: 1))
        try await outbox.enqueue(.done(id: 2))
        var kinds: [OutboxOutcomeKind] = []
        for await outcome in outbox.outcomes {
            kinds.append(outcome.kind)
            if kinds.count == 2 { break }
        }
        #expect(kinds == [.delivered, .rejected])
        await outbox.close()
        let queue = [("courier.outbox.queue", "chores")]
        #expect(try metrics.expectCounter("courier.outbox.enqueued", queue).totalValue == 2)
        #expect(try metrics.expectCounter("courier.outbox.waits", queue).totalValue == 1)
        for kind in ["delivered", "rejected"] {
            let dimensions = queue + [("courier.outbox.outcome", kind)]
            #expect(try metrics.expectCounter("courier.outbox.outcomes", dimensions).totalValue == 1)
        }
        #expect(try metrics.expectGauge("courier.outbox.waiting", queue).lastValue == 0)
        #expect(try metrics.expectGauge("courier.outbox.oldest_age", queue).lastValue == 0)
        // Each try is a request, measured as one.
        #expect(metrics.counterTotal(label: "courier.client.requests") == 3)
    }
}
