import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a request received: the status code, the body, the request that was sent and the
/// HTTP response.
///
/// ```swift
/// let response = try await provider.request(.user("octocat"))
/// let user = try response.filterSuccessfulStatusCodes().map(User.self)
/// ```
public struct Response: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The HTTP status code.
    public var statusCode: Int { storage.statusCode }
    /// The body.
    public var data: Data { storage.data }
    /// The request as it was sent (after plugins and the interceptor), when known.
    public var request: URLRequest? { storage.request }
    /// The HTTP response with its headers, when known: always for the network, and for stubs
    /// answered with `EndpointSampleResponse.response(_:_:)`; `nil` for stubs answered with
    /// `.networkResponse(_:_:)`, as in Moya.
    public var response: HTTPURLResponse? { storage.source.response }
    /// Where ``response`` comes from.
    var source: ResponseSource { storage.source }
    /// Where a download was put (``HTTPTask/downloadDestination(_:)``); its `data` is then empty.
    public var fileURL: URL? { storage.fileURL }
    /// The response's header fields in the order the transport received them (a repeated
    /// `Set-Cookie` kept apart by engines that receive it so); empty without ``response``.
    public var headerFields: HeaderFields {
        receivedFields ?? response.map(HeaderFields.init) ?? HeaderFields()
    }
    /// The fields an engine gave apart from Foundation's response, which are made from it only
    /// when asked for (most engines give only the response).
    var receivedFields: HeaderFields? { storage.receivedFields }
    /// How many times the transport resent the request by itself (for the attempt's metrics).
    var transportResends: Int { storage.transportResends }
    /// The HTTP version the engine received the answer in (``TransportResponse/protocolVersion``).
    var protocolVersion: String? { storage.protocolVersion }
    /// What the provider's ``HTTPCache`` did for this response: a fresh, revalidated, stale or
    /// shared hit, or a miss; `nil` when the provider has no cache or the request did not go
    /// through it.
    public var cacheOutcome: CacheOutcome? { cacheRecord?.outcome }
    /// Where ``cacheOutcome`` is kept.
    var cacheRecord: CacheRecord? { storage.cacheRecord }

    /// The fields, kept once and shared by every copy: a response passes through plugins,
    /// results and metrics, and copying its nine fields each time cost about 1,500 instructions
    /// per request (callgrind, Benchmarks/README), one shared reference a few.
    private let storage: Storage

    /// Creates a response.
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - data: The body.
    ///   - request: The request that was sent.
    ///   - response: The HTTP response.
    ///   - fileURL: Where a download was put.
    ///   - headerFields: The header fields in the order received; those of `response` by default.
    public init(
        statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil, fileURL: URL? = nil,
        headerFields: HeaderFields? = nil
    ) {
        self.init(
            statusCode: statusCode, data: data, request: request, source: .given(response), fileURL: fileURL,
            headerFields: headerFields)
    }

    /// A response whose HTTP response is made only when asked for, with what the transport and
    /// the cache recorded about it.
    init(
        statusCode: Int, data: Data, request: URLRequest?, source: ResponseSource, fileURL: URL?,
        headerFields: HeaderFields?, transportResends: Int = 0, protocolVersion: String? = nil,
        cacheRecord: CacheRecord? = nil
    ) {
        storage = Storage(
            statusCode: statusCode, data: data, request: request, source: source, fileURL: fileURL,
            receivedFields: headerFields, transportResends: transportResends, protocolVersion: protocolVersion,
            cacheRecord: cacheRecord)
    }

    /// The status code and the size of the body, for example `Status Code: 200, Data Length: 42`.
    public var description: String {
        "Status Code: \(statusCode), Data Length: \(data.count)"
    }

    /// ``description`` plus the request's method and URL (its secrets hidden, see ``Redaction``).
    public var debugDescription: String {
        let target = request.map { Redaction.default.requestLine($0) + " → " } ?? ""
        return target + description
    }

    /// Whether two responses have the same status code, body, HTTP response and file.
    public static func == (lhs: Response, rhs: Response) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.statusCode == rhs.statusCode && lhs.data == rhs.data && lhs.response == rhs.response
            && lhs.fileURL == rhs.fileURL
    }
}

extension Response {
    /// A response's fields. Immutable, so copies of a ``Response`` share one.
    private final class Storage: Sendable {
        let statusCode: Int
        let data: Data
        let request: URLRequest?
        let source: ResponseSource
        let fileURL: URL?
        let receivedFields: HeaderFields?
        let transportResends: Int
        let protocolVersion: String?
        let cacheRecord: CacheRecord?

        init(
            statusCode: Int, data: Data, request: URLRequest?, source: ResponseSource, fileURL: URL?,
            receivedFields: HeaderFields?, transportResends: Int, protocolVersion: String?, cacheRecord: CacheRecord?
        ) {
            self.statusCode = statusCode
            self.data = data
            self.request = request
            self.source = source
            self.fileURL = fileURL
            self.receivedFields = receivedFields
            self.transportResends = transportResends
            self.protocolVersion = protocolVersion
            self.cacheRecord = cacheRecord
        }
    }
}
