import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one attempt's request and returns what came back: the engine at the bottom of the
/// pipeline, and the one thing an engine author implements.
///
/// The default is ``URLSessionTransport``; the AsyncHTTPClient add-on has another; a stubbed
/// target uses Courier's stub engine, and CourierTesting's `ScriptedTransport` plays back scripted
/// responses. Write your own to put another HTTP client under Courier:
/// ```swift
/// struct LoggingTransport: Transport {
///     let base: any Transport
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         print("→", request.urlRequest.url!)
///         return try await base.send(request)
///     }
/// }
/// ```
/// The contract, whole:
/// - ``send(_:)`` is the one requirement. It sends the request once (one hop: a redirect is an
///   answer, the provider follows it with Courier's rules) and returns every HTTP status code as
///   a response; it throws only when no response was received, and stops promptly when the
///   calling Swift task is cancelled.
/// - The body goes where ``TransportRequest/delivery`` asks: in memory (``TransportResponse/data``),
///   into a temporary file (``TransportResponse/fileURL``), or as a stream
///   (``TransportResponse/stream``) returned at the head. An engine that cannot stream may return
///   the body in memory; the provider then hands it on as one chunk.
/// - It honours ``TransportRequest/timeout`` when it declares ``TransportCapabilities/timeouts``
///   (otherwise the provider bounds it), and the request options it declares in ``capabilities``
///   (a request asking for another fails before it is sent).
/// - An engine that does not speak Foundation reads the request's ``TransportRequest/method``
///   and ``TransportRequest/headerFields`` and answers with ``HeaderFields``.
/// - Built with Swift 6.2 or later, ``send(_:)`` runs on the caller's executor (the requirement
///   is `nonisolated(nonsending)`, and an implementation takes that from it whatever its own
///   module's settings): for an app's request from the main actor, on the main actor. It must not
///   block there; an engine whose `send` does blocking work marks it `@concurrent`.
///
/// Redirects, the cookie jar, the cache, resilience and time limits are stages above every
/// engine, so their rules hold on any engine: an engine must not follow redirects itself. CourierTesting's
/// `TransportConformance` checks all of this against a local server.
public protocol Transport: Sendable {
    /// Sends `request` once and returns the response, its body delivered as
    /// ``TransportRequest/delivery`` asks.
    /// - Parameter request: What to send.
    /// - Returns: The HTTP response and its body (whole, in a file, or arriving).
    /// - Throws: A transport error (usually a `URLError`) when no response was received.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// The request options this transport honours and the limits it enforces itself; none by
    /// default. A request asking for an option not in the set is refused before it is sent; a
    /// ``TransportRequest/timeout`` the transport does not enforce, the provider enforces.
    var capabilities: TransportCapabilities { get }

    /// The header fields the engine adds to every request itself (a session's `User-Agent`, say),
    /// which plugins do not see in the request; none by default. A logger shows them, as Moya's
    /// `RequestType.sessionHeaders` (``PreparedRequest/sessionHeaders``).
    var sessionHeaders: [String: String] { get }
}

extension Transport {
    /// None: the provider refuses requests that ask for options and enforces timeouts itself.
    public var capabilities: TransportCapabilities { [] }

    /// None.
    public var sessionHeaders: [String: String] { [:] }
}
