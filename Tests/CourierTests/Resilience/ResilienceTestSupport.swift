import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps every request's metrics, in the order the requests finished.
final class MetricsCatcher: PluginType, Sendable {
    private let seen = Locked<[RequestMetrics]>([])

    /// The metrics of every finished request.
    var requests: [RequestMetrics] { seen.withLock { $0 } }
    /// The attempts of the last finished request.
    var lastAttempts: [AttemptMetrics] { requests.last?.attempts ?? [] }

    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics) {
        seen.withLock { $0.append(metrics) }
    }
}

/// A transport whose first exchange does not answer for `slowness` seconds of its clock, and
/// whose later ones answer 200 at once; it counts exchanges and cancellations.
final class SlowFirstTransport: Transport {
    let clock: any ProviderClock
    let slowness: TimeInterval
    private let counts = Locked((sent: 0, cancelled: 0))
    private let cancellation = AsyncStream<Void>.makeStream()

    init(clock: any ProviderClock, slowness: TimeInterval = 10) {
        self.clock = clock
        self.slowness = slowness
    }

    var sent: Int { counts.withLock { $0.sent } }
    var cancelled: Int { counts.withLock { $0.cancelled } }

    /// Returns once an exchange has ended by cancellation.
    func firstCancellation() async {
        var events = cancellation.stream.makeAsyncIterator()
        _ = await events.next()
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let number = counts.withLock { counts in
            counts.sent += 1
            return counts.sent
        }
        if number == 1 {
            do {
                try await clock.sleep(seconds: slowness)
            } catch {
                counts.withLock { $0.cancelled += 1 }
                cancellation.continuation.yield()
                throw error
            }
        }
        return TransportResponse(
            statusCode: 200, headerFields: HeaderFields(), url: request.urlRequest.url!, data: Data("\(number)".utf8))
    }
}

extension Result where Success == Response, Failure == CourierError {
    /// The resilience refusal this result failed with, if any.
    var refusal: ResilienceError? {
        guard case .failure(.transport(let error as ResilienceError, _)) = self else { return nil }
        return error
    }

    /// The status code of the response or of the rejected response.
    var status: Int? {
        switch self {
        case .success(let response): response.statusCode
        case .failure(let error): error.response?.statusCode
        }
    }
}
