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
    /// The whole body (empty when it was written to ``fileURL`` or arrives as ``stream``).
    public let data: Data
    /// The temporary file holding the body, for a request delivered to a file
    /// (``TransportRequest/Delivery/file``). The provider moves it to its destination or deletes it.
    public let fileURL: URL?
    /// The body as it arrives, for a request delivered as a stream
    /// (``TransportRequest/Delivery/stream``): the response is returned at its head. Stop reading
    /// it (or drop it) to cancel the rest of the transfer.
    public let stream: TransportBody?
    /// Where the body is: in memory, in a file, or arriving.
    public var body: Body {
        if let stream { return .stream(stream) }
        if let fileURL { return .file(fileURL) }
        return .data(data)
    }
    /// How many times the transport sent the request again by itself because a kept-alive
    /// connection closed under it before any answer (only an idempotent request, see
    /// ``TransportRequest/isIdempotent``): the attempt's metrics report it.
    public var resends = 0
    /// The HTTP version the answer came in, as OpenTelemetry's `network.protocol.version` spells
    /// it (`1.0`, `1.1`, `2`, `3`), when the engine knows it (AsyncHTTPClient does; URLSession
    /// and stubs leave it `nil`): the attempt's metrics report it.
    public var protocolVersion: String?
    /// What the provider's cache did, when the answer came through it (set by the cache, never
    /// by an engine).
    var cacheOutcome: CacheOutcome? {
        get { cacheRecord?.outcome }
        set { cacheRecord = newValue.map(CacheRecord.init) }
    }
    /// Where ``cacheOutcome`` is kept.
    var cacheRecord: CacheRecord?

    /// The value of the field `name` (repeated lines joined by `", "`), read without making
    /// ``headerFields`` from Foundation's response: about 8,000 instructions on Linux
    /// (callgrind), where a stage needs one field to decide whether it needs them all.
    func field(_ name: String) -> String? {
        if let receivedFields { return receivedFields[name] }
        return response?.value(forHTTPHeaderField: name)
    }

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
        self.stream = nil
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
        self.stream = nil
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
        self.stream = nil
    }

    /// Creates a streamed response from an HTTP response: returned at its head, the body
    /// following as it arrives.
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - stream: The body, chunk by chunk.
    public init(response: HTTPURLResponse, stream: TransportBody) {
        self.init(statusCode: response.statusCode, source: .given(response), headerFields: nil, stream: stream)
    }

    /// Creates a streamed response from the head an engine received, for an engine that does not
    /// speak Foundation's `HTTPURLResponse`.
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headerFields: The header fields, in the order received.
    ///   - url: The URL that answered.
    ///   - stream: The body, chunk by chunk.
    public init(statusCode: Int, headerFields: HeaderFields, url: URL, stream: TransportBody) {
        self.init(
            statusCode: statusCode, source: .made(MadeResponse(url: url, statusCode: statusCode, fields: headerFields)),
            headerFields: headerFields, stream: stream)
    }

    /// Where a response's body is.
    public enum Body: Sendable {
        /// The whole body, in memory.
        case data(Data)
        /// The temporary file holding the body.
        case file(URL)
        /// The body as it arrives.
        case stream(TransportBody)
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
        self.stream = nil
    }

    init(statusCode: Int, source: ResponseSource, headerFields: HeaderFields?, stream: TransportBody) {
        self.statusCode = statusCode
        self.source = source
        self.receivedFields = headerFields
        self.data = Data()
        self.fileURL = nil
        self.stream = stream
    }

    /// The same head and bookkeeping with the whole body `data` in memory.
    func withData(_ data: Data) -> TransportResponse {
        var whole = TransportResponse(statusCode: statusCode, source: source, headerFields: receivedFields, data: data)
        whole.keepRecords(of: self)
        return whole
    }

    /// Keeps what the engine and the cache recorded about `other` (its resends, its protocol
    /// version, the cache's outcome) on this response made from it.
    mutating func keepRecords(of other: TransportResponse) {
        resends = other.resends
        protocolVersion = other.protocolVersion
        cacheRecord = other.cacheRecord
    }
}

extension HTTPURLResponse {
    /// Foundation's response for a head an engine received (`nil` when Foundation refuses it).
    convenience init?(url: URL, statusCode: Int, headerFields: HeaderFields) {
        self.init(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headerFields.dictionary)
    }
}
