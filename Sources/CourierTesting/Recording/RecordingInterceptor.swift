import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that records each `adapt` and `retry` in a ``CallRecorder``, then does what its
/// closures say: by default it passes requests through and never retries.
///
/// ```swift
/// let interceptor = RecordingInterceptor(recorder: recorder, retry: { _, context in
///     context.attempt < 2 ? .retry : .doNotRetry
/// })
/// ```
public struct RecordingInterceptor: RequestInterceptor {
    /// Where events go.
    public let recorder: CallRecorder
    private let adaptHandler: @Sendable (URLRequest, RequestContext) async throws -> URLRequest
    private let retryHandler: @Sendable (CourierError, RequestContext) async -> RetryResult

    /// Creates a recording interceptor.
    /// - Parameters:
    ///   - recorder: Where events go.
    ///   - adapt: What `adapt` does after recording; passes the request through by default.
    ///   - retry: What `retry` decides after recording; `.doNotRetry` by default.
    public init(
        recorder: CallRecorder,
        adapt: @escaping @Sendable (URLRequest, RequestContext) async throws -> URLRequest = { request, _ in request },
        retry: @escaping @Sendable (CourierError, RequestContext) async -> RetryResult = { _, _ in .doNotRetry }
    ) {
        self.recorder = recorder
        self.adaptHandler = adapt
        self.retryHandler = retry
    }

    /// Records `adapt`, then runs the adapt closure.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        recorder.record(.adapt(attempt: context.attempt))
        return try await adaptHandler(request, context)
    }

    /// Records `retry`, then runs the retry closure.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    {
        recorder.record(.retry(attempt: context.attempt, .init(error)))
        return await retryHandler(error, context)
    }
}
