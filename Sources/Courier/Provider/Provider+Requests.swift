import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Provider {
    /// Sends the request of `target` and returns its response.
    ///
    /// Cancelling the calling Swift task cancels the request: it ends with
    /// ``CourierError/cancelled``.
    /// - Parameter target: The target to request.
    /// - Returns: The response, after every plugin's `process`.
    /// - Throws: ``CourierError`` when the request fails.
    public func request(_ target: Target) async throws(CourierError) -> Response {
        try await perform(target).get()
    }

    /// Sends the request of `target` and decodes its body.
    /// ```swift
    /// let user = try await provider.request(.user("octocat"), as: User.self)
    /// ```
    /// - Parameters:
    ///   - target: The target to request.
    ///   - type: The type to decode.
    ///   - keyPath: A dot-separated key path into the JSON body, or `nil` for the whole body.
    ///   - decoder: The decoder to use.
    /// - Returns: The decoded value.
    /// - Throws: ``CourierError`` when the request or the decoding fails.
    public func request<Value: Decodable>(
        _ target: Target, as type: Value.Type, atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder()
    ) async throws(CourierError) -> Value {
        try await request(target).map(type, atKeyPath: keyPath, using: decoder)
    }

    /// Sends the request of `target` and calls `completion` with the result, exactly once.
    ///
    /// A thin wrapper over the async ``request(_:)``: the same path and the same order.
    /// ```swift
    /// let request = provider.request(.zen) { result in
    ///     if case .success(let response) = result { print((try? response.mapString()) ?? "") }
    /// }
    /// request.cancel()   // completion gets .failure(.cancelled)
    /// ```
    /// - Parameters:
    ///   - target: The target to request.
    ///   - callbackQueue: Where `progress` and `completion` run; the provider's ``callbackQueue`` by
    ///     default. Use a serial queue: progress reports are then all delivered before `didReceive`.
    ///   - progress: Receives the transfer's progress (sent bytes for uploads, received bytes
    ///     otherwise), then, right before `completion`, a last report carrying the response.
    ///   - completion: Receives the response or the error.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func request(
        _ target: Target, callbackQueue: DispatchQueue? = nil, progress: (@Sendable (ProgressResponse) -> Void)? = nil,
        completion: @escaping @Sendable (Result<Response, CourierError>) -> Void
    ) -> any Cancellable {
        let queue = callbackQueue ?? self.callbackQueue
        // Closed on the queue right before `completion`: a report that reaches the queue later
        // (from an exchange this caller left) is dropped.
        let open = Locked(true)
        let reporter = progress.map { handler in
            ProgressReporter(
                direction: target.task.progressDirection,
                handler: { report in queue.async { if open.value { handler(report) } } },
                deliveredBefore: { await withCheckedContinuation { done in queue.async { done.resume() } } })
        }
        let task = Task {
            // Handed off inside the pipeline, so that the completions of joined requests run in
            // the order their callers joined, while the request is still listed as in flight.
            _ = await perform(target, progress: reporter) { result in
                if case .success(let response) = result { reporter?.finish(with: response) }
                await withCheckedContinuation { (delivered: CheckedContinuation<Void, Never>) in
                    queue.async {
                        open.withLock { $0 = false }
                        completion(result)
                        delivered.resume()
                    }
                }
            }
        }
        return CancellableTask(task: task)
    }

    /// Sends the request of `target` and reports its progress as it goes.
    ///
    /// The sequence yields progress reports (sent bytes for uploads, received bytes otherwise),
    /// then one last report that carries the response, and ends; a failure ends it by throwing
    /// the ``CourierError``. Stopping the iteration, or cancelling its task, cancels the request.
    /// ```swift
    /// for try await report in provider.requestWithProgress(.download(file)) {
    ///     if let response = report.response { print("saved to", response.fileURL!) }
    ///     else { print(Int(report.progress * 100), "%") }
    /// }
    /// ```
    /// - Parameter target: The target to request.
    /// - Returns: The reports, ending with the response.
    public func requestWithProgress(_ target: Target) -> AsyncThrowingStream<ProgressResponse, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ProgressResponse, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(64))
        let reporter = ProgressReporter(direction: target.task.progressDirection) { continuation.yield($0) }
        let task = Task {
            switch await perform(target, progress: reporter) {
            case .success(let response):
                reporter.finish(with: response)
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension HTTPTask {
    /// Uploads report the bytes they send; every other request the bytes it receives.
    var progressDirection: TransferProgress.Direction {
        if case .inline = transportBody { return .download }
        return .upload
    }
}
