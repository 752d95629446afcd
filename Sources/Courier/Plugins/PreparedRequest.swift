import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request that every plugin has prepared and that is about to be adapted and sent, as
/// ``PluginType/willSend(_:target:)`` sees it.
public struct PreparedRequest: Sendable {
    /// The prepared request. The interceptor may still change it before it is sent.
    public let request: URLRequest
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The request this attempt belongs to; ``RequestMetrics/requestID`` in `didReceive` is the same.
    public let requestID: RequestID
    /// The header fields the engine adds itself (``Transport/sessionHeaders``: URLSession's
    /// `User-Agent` and `Accept-Language`), as Moya's `RequestType.sessionHeaders`; those of
    /// ``request`` win over them. Empty for a stubbed request.
    public let sessionHeaders: [String: String]
    /// Where the body comes from when it is not the request's `httpBody` (a file, a form, a stream).
    let body: TransportRequest.Body

    /// Creates a prepared request.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - attempt: The attempt number, starting at 1.
    ///   - requestID: The request this attempt belongs to.
    ///   - sessionHeaders: The header fields the engine adds itself; none by default.
    public init(request: URLRequest, attempt: Int, requestID: RequestID, sessionHeaders: [String: String] = [:]) {
        self.init(
            request: request, attempt: attempt, requestID: requestID, sessionHeaders: sessionHeaders, body: .inline)
    }

    init(
        request: URLRequest, attempt: Int, requestID: RequestID, sessionHeaders: [String: String],
        body: TransportRequest.Body
    ) {
        self.request = request
        self.attempt = attempt
        self.requestID = requestID
        self.sessionHeaders = sessionHeaders
        self.body = body
    }

    /// The request with the ``sessionHeaders`` it lacks: what the engine sends.
    public var requestWithSessionHeaders: URLRequest {
        guard !sessionHeaders.isEmpty else { return request }
        var request = request
        for (name, value) in sessionHeaders where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// The request as a `curl` command line, with the ``sessionHeaders``, its secrets hidden; see
    /// `URLRequest.cURLDescription(redaction:maximumBodyBytes:)`.
    /// - Parameter redaction: What is hidden; ``Redaction/default`` by default.
    /// - Returns: The command line.
    public func cURLDescription(redaction: Redaction = .default) -> String {
        requestWithSessionHeaders.cURLDescription(redaction: redaction)
    }

    /// The request as a `curl` command line, hiding the values of `redactedHeaders` (and the
    /// secrets of the URL and body that ``Redaction/default`` names).
    /// - Parameter redactedHeaders: Header names whose values are replaced by `***`.
    /// - Returns: The command line.
    @available(*, deprecated, message: "Use cURLDescription(redaction:) with Redaction(headers:).")
    public func cURLDescription(redacting redactedHeaders: Set<String>) -> String {
        request.cURLDescription(redaction: Redaction(headers: redactedHeaders))
    }
}
