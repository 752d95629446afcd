import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``Transport`` received when streaming: the head, and a body still arriving.
public struct StreamedTransportResponse: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The HTTP response with its headers, when the transport has one (made from
    /// ``headerFields`` for an engine that gave those instead).
    public var response: HTTPURLResponse? { source.response }
    /// Where ``response`` comes from.
    let source: ResponseSource
    /// The response's header fields in the order received.
    public var headerFields: HeaderFields {
        receivedFields ?? response.map(HeaderFields.init) ?? HeaderFields()
    }
    /// The fields an engine gave apart from Foundation's response, which are made from it only
    /// when asked for (most engines give only the response).
    let receivedFields: HeaderFields?
    /// The body, chunk by chunk. Stop reading it (or drop it) to cancel the rest of the transfer.
    public let body: TransportBody

    /// Creates a streamed response.
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - response: The HTTP response, if any.
    ///   - body: The body.
    public init(statusCode: Int, response: HTTPURLResponse?, body: TransportBody) {
        self.statusCode = statusCode
        self.source = .given(response)
        self.receivedFields = nil
        self.body = body
    }

    /// Creates a streamed response from the head an engine received, for an engine that does not
    /// speak Foundation's `HTTPURLResponse` (one is made from the head).
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headerFields: The header fields, in the order received.
    ///   - url: The URL that answered.
    ///   - body: The body.
    public init(statusCode: Int, headerFields: HeaderFields, url: URL, body: TransportBody) {
        self.statusCode = statusCode
        self.source = .made(MadeResponse(url: url, statusCode: statusCode, fields: headerFields))
        self.receivedFields = headerFields
        self.body = body
    }

    /// A streamed response with both heads given, as the default ``Transport/stream(_:)`` bridges
    /// a whole one.
    init(statusCode: Int, source: ResponseSource, headerFields: HeaderFields?, body: TransportBody) {
        self.statusCode = statusCode
        self.source = source
        self.receivedFields = headerFields
        self.body = body
    }
}
