import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``Transport``: one long-lived `URLSession` driven by one session-level delegate.
///
/// Built on what works the same on Linux and Apple platforms: data tasks whose callbacks a single
/// session delegate routes by task (per-task delegates lose callbacks on Linux), the body buffered
/// once as it arrives, and cancellation of the Swift task cancelling the `URLSessionTask`.
/// Every status code is returned as a response.
///
/// A 401 carrying a `WWW-Authenticate` challenge is returned as a response rather than answered
/// with stored credentials (on Linux, URLSession would otherwise wait forever); put credentials in
/// headers with an adapter or a plugin.
///
/// The session is invalidated when the transport is released; in-flight requests keep the
/// transport alive, so it is never used after invalidation.
public final class URLSessionTransport: Transport {
    /// The session that sends the requests.
    public let session: URLSession
    private let router: SessionDelegate

    /// Creates a transport with its own session.
    /// - Parameter configuration: The session configuration; ``defaultConfiguration`` by default.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration) {
        let router = SessionDelegate()
        let queue = OperationQueue()
        queue.name = "Courier.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// An ephemeral configuration: cookies and cache in memory, nothing written to the home
    /// folder (on Linux the default configuration writes cookie and cache files there).
    public static var defaultConfiguration: URLSessionConfiguration {
        URLSessionConfiguration.ephemeral
    }

    /// Sends `request` with a data task and returns its response and whole body.
    /// - Parameter request: What to send.
    /// - Returns: The response and body, whatever the status code.
    /// - Throws: The `URLError` of a failed transfer; `URLError(.cancelled)` when the Swift task
    ///   is cancelled.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let exchange = Exchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request.urlRequest)
                exchange.start(continuation)
                router.register(exchange, for: task)
                task.resume()
                exchange.attach(task)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}
