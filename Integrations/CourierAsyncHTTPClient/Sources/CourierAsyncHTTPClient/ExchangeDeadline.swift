import AsyncHTTPClient
import Courier
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of one exchange's total timeout. AsyncHTTPClient's own deadline ends when the head
/// arrives; this one also covers the body, by racing the work against a timer.
struct ExchangeDeadline: Sendable {
    /// When the exchange must be over, or `nil` for no limit.
    let instant: NIODeadline?

    init(_ timeout: TimeInterval?) {
        instant = timeout.map { .now() + .nanoseconds(Int64(min(max($0, 0), 1e9) * 1_000_000_000)) }
    }

    /// The deadline for `HTTPClient.execute`.
    var nio: NIODeadline { instant ?? .distantFuture }

    /// Runs `work`, cancelled with `TransportFailure.Kind.timedOut` when the deadline passes.
    func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard let instant else { return try await work() }
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                let left = instant.uptimeNanoseconds.subtractingReportingOverflow(NIODeadline.now().uptimeNanoseconds)
                if !left.overflow, left.partialValue > 0 { try await Task.sleep(nanoseconds: left.partialValue) }
                return nil
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else {
                throw TransportFailure(kind: .timedOut, underlyingError: HTTPClientError.deadlineExceeded)
            }
            return value
        }
    }
}
