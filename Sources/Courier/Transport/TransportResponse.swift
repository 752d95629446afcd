import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``Transport`` received.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The HTTP response with its headers, when the transport has one (made from
    /// ``headerFields`` for an engine that gave those instead).
    public var response: HTTPURLResponse? { source.response }
    /// Where ``response`` comes from.
    let source: ResponseSource
    /// The response's header fields in the order received, repeated names kept apart when the
    /// engine received them apart; empty when there is no head (a stub's `.networkResponse`).
    public var headerFields: HeaderFields {
        receivedFields ?? response.map(HeaderFields.init) ?? HeaderFields()
    }
    /// The fields an engine gave apart from Foundation's response, which are made from it only
    /// when asked for (most engines give only the response).
    let receivedFields: HeaderFields?
    /// The whole body (empty when it was written to ``fileURL``).
    public let data: Data
    /// The temporary file holding the body of a request that ``TransportRequest/writesToFile``.
    /// The provider moves it to its destination or deletes it.
    public let fileURL: URL?
    /// How many times the transport sent the request again by itself because a kept-alive
    /// connection closed under it before any answer (only an idempotent request, see
    /// ``TransportRequest/isIdempotent``): the attempt's metrics report it.
    public var resends = 0
    /// What the provider's cache did, when the answer came through it (set by the cache, never
    /// by an engine).
    var cacheOutcome: CacheOutcome? {
        get { cacheRecord?.outcome }
        set { cacheRecord = newValue.map(CacheRecord.init) }
    }
    /// Where ``cacheOutcome`` is kept.
    var cacheRecord: CacheRecord?

    /// Creates a transport response from an HTTP response.
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - data: The body.
    ///   - fileURL: The temporary file holding the body, for a download.
    public init(response: HTTPURLResponse, data: Data, fileURL: URL? = nil) {
        self.statusCode = response.statusCode
        self.source = .given(response)
        self.receivedFields = nil
        self.data = data
        self.fileURL = fileURL
    }

    /// Creates a transport response from the head an engine received, for an engine that does
    /// not speak Foundation's `HTTPURLResponse` (one is made from the head for
    /// `Response.response`).
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headerFields: The header fields, in the order received.
    ///   - url: The URL that answered.
    ///   - data: The body.
    ///   - fileURL: The temporary file holding the body, for a download.
    public init(statusCode: Int, headerFields: HeaderFields, url: URL, data: Data, fileURL: URL? = nil) {
        self.statusCode = statusCode
        self.source = .made(MadeResponse(url: url, statusCode: statusCode, fields: headerFields))
        self.receivedFields = headerFields
        self.data = data
        self.fileURL = fileURL
    }

    /// Creates a transport response with a status code and no headers (a stub's
    /// `.networkResponse`, for example).
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - data: The body.
    ///   - fileURL: The temporary file holding the body, for a download.
    public init(statusCode: Int, data: Data, fileURL: URL? = nil) {
        self.statusCode = statusCode
        self.source = .given(nil)
        self.receivedFields = nil
        self.data = data
        self.fileURL = fileURL
    }
}

extension TransportResponse {
    /// A response with both heads given, as a streamed head is turned into one.
    init(statusCode: Int, source: ResponseSource, headerFields: HeaderFields?, data: Data) {
        self.statusCode = statusCode
        self.source = source
        self.receivedFields = headerFields
        self.data = data
        self.fileURL = nil
    }
}

extension HTTPURLResponse {
    /// Foundation's response for a head an engine received (`nil` when Foundation refuses it).
    convenience init?(url: URL, statusCode: Int, headerFields: HeaderFields) {
        self.init(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headerFields.dictionary)
    }
}
