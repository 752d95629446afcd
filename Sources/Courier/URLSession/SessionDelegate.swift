import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one delegate of a ``URLSessionTransport``'s session: routes each callback to the
/// ``Exchange`` of its task, and answers every completion handler exactly once (on Linux, a
/// handler never called hangs the task and one called twice crashes).
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Locked<[Int: Exchange]>([:])

    /// How many tasks are in flight (for tests that check nothing is left behind).
    var activeTaskCount: Int {
        exchanges.withLock { $0.count }
    }

    /// The value of `NSURLAuthenticationMethodServerTrust`, spelled out because that constant is
    /// marked unavailable on Linux (which never delivers server-trust challenges).
    private static let serverTrust = "NSURLAuthenticationMethodServerTrust"

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchange.taskIdentifier = task.taskIdentifier
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Forgets the exchange of a task that URLSession ran with a completion handler: such a task
    /// ends in its handler, and the delegate hears nothing of its completion.
    func unregister(_ exchange: Exchange) {
        guard let identifier = exchange.taskIdentifier else { return }
        exchanges.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.allow) }
        exchange.receive(response, disposition: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(with: error, response: task.response)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        let exchange = exchange(for: task)
        if let stream = exchange?.makeBodyStream() { return completionHandler(stream) }
        // Only a streamed body can be handed again (see `Exchange.cannotRewind`).
        completionHandler(nil)
        exchange?.cannotRewind()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // URLSession never follows a redirect: the 3xx is the task's answer, and the transport
        // provider follows it above the engine (`RedirectStage`), with Courier's rules.
        guard let exchange = exchange(for: task) else { return completionHandler(nil) }
        exchange.answerRedirect(completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            // Linux: the default handling of an HTTP challenge (Basic, Digest…) without a stored
            // credential never completes the task (swift-corelibs-foundation, up to 6.3.1), so
            // the challenge is declined and its 401 returned, with the body URLSession delivered
            // before it (see `Exchange.declineChallenge`). Server trust is never asked on Linux.
            if challenge.protectionSpace.authenticationMethod == Self.serverTrust {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            exchange(for: task)?.declineChallenge(with: challenge.failureResponse)
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            // Apple platforms: the system's default for every challenge. Server trust is
            // evaluated; an HTTP challenge uses a stored credential if there is one and otherwise
            // returns the 401 with its body; a TLS client-certificate request goes on without one.
            completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
