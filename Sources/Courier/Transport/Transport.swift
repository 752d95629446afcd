import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one attempt's request and returns what came back: the last stage of the pipeline.
///
/// The default is ``URLSessionTransport``. A stubbed target uses Courier's stub transport
/// instead, and CourierTesting's `ScriptedTransport` plays back scripted responses; write your
/// own to put another HTTP client under Courier:
/// ```swift
/// struct LoggingTransport: Transport {
///     let base: any Transport
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         print("→", request.urlRequest.url!)
///         return try await base.send(request)
///     }
/// }
/// ```
/// A transport returns every HTTP status code as a response; it throws only when no response was
/// received. It should stop promptly when the calling Swift task is cancelled. An engine that can
/// follow redirects should not: wrap it in ``RedirectingTransport``, so that Courier's redirect
/// rules hold. An engine that does not speak Foundation reads the request's
/// ``TransportRequest/method`` and ``TransportRequest/headerFields`` and answers with
/// ``HeaderFields``; it declares the request options it honours in ``capabilities``.
/// CourierTesting's `TransportConformance` checks all of this against a local server.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response with its whole body.
    /// - Parameter request: What to send.
    /// - Returns: The HTTP response and its body.
    /// - Throws: A transport error (usually a `URLError`) when no response was received.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// Sends `request` and returns the response as soon as its head arrives, with a body that
    /// arrives as it is received. The default sends the request with ``send(_:)`` and returns the
    /// whole body as one chunk: a transport that can stream implements this too.
    /// - Parameter request: What to send (`writesToFile` does not apply).
    /// - Returns: The response and its body.
    /// - Throws: A transport error when no response head was received.
    func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse

    /// The request options this transport honours and the limits it enforces itself; none by
    /// default. A request asking for an option not in the set is refused before it is sent; a
    /// ``TransportRequest/timeout`` the transport does not enforce, the provider enforces.
    var capabilities: TransportCapabilities { get }
}

extension Transport {
    /// None: the provider refuses requests that ask for options and enforces timeouts itself.
    public var capabilities: TransportCapabilities { [] }

    /// Sends the request with ``send(_:)``; the body is the whole body, as one chunk.
    public func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse {
        var whole = request
        whole.writesToFile = false
        let response = try await send(whole)
        return StreamedTransportResponse(
            statusCode: response.statusCode, source: response.source, headerFields: response.receivedFields,
            body: TransportBody(response.data))
    }
}
