import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLSession` and the one delegate that routes its tasks' callbacks (task identifiers are
/// per session, so each session has its own router).
struct SessionLane: Sendable {
    let session: URLSession
    let router: SessionDelegate

    /// A session on `configuration`, with its delegate on a serial queue.
    init(configuration: URLSessionConfiguration) {
        let router = SessionDelegate()
        let queue = OperationQueue()
        queue.name = "Courier.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    /// `configuration` with every cookie handling off: none sent from storage, none stored. For
    /// the requests that ask for it with `httpShouldHandleCookies = false`, which URLSession on
    /// Linux ignores on the request (FoundationNetworking reads only the configuration).
    static func cookieless(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        // URLSessionConfiguration is a class: the copy leaves the caller's alone.
        let copy = configuration.copy() as? URLSessionConfiguration ?? configuration
        copy.httpShouldSetCookies = false
        copy.httpCookieAcceptPolicy = .never
        copy.httpCookieStorage = nil
        return copy
    }
}
