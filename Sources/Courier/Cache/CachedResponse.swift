import Foundation

/// One stored response of an ``HTTPCache``: what a ``HTTPCacheStorage`` keeps.
public struct CachedResponse: Sendable, Codable, Hashable {
    /// The request URL it answers.
    public var url: URL
    /// The status code.
    public var statusCode: Int
    /// The header fields, in order, as stored (hop-by-hop fields left out).
    public var headerFields: [Field]
    /// The body.
    public var body: Data
    /// When the request that fetched it was sent.
    public var requestDate: Date
    /// When its response arrived (or was last validated).
    public var responseDate: Date
    /// The request's values of the fields the response's `Vary` names, by lower-case name; a
    /// name the request did not send is absent.
    public var varyValues: [String: String]
    /// The fields parsed when the response was stored (see ``Parsed``); not encoded, and equal
    /// for every response.
    var parsed: Parsed?

    private enum CodingKeys: String, CodingKey {
        case url, statusCode, headerFields, body, requestDate, responseDate, varyValues
    }

    /// A header field.
    public struct Field: Sendable, Codable, Hashable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a stored response.
    /// - Parameters:
    ///   - url: The request URL.
    ///   - statusCode: The status code.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    ///   - requestDate: When the request was sent.
    ///   - responseDate: When the response arrived.
    ///   - varyValues: The request's values of the fields `Vary` names.
    public init(
        url: URL, statusCode: Int, headerFields: [Field], body: Data, requestDate: Date, responseDate: Date,
        varyValues: [String: String]
    ) {
        self.url = url
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.body = body
        self.requestDate = requestDate
        self.responseDate = responseDate
        self.varyValues = varyValues
    }

    /// The bytes it takes, roughly: body, fields and URL.
    public var size: Int {
        body.count + url.absoluteString.utf8.count
            + headerFields.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 8 }
    }

    /// The fields as ``HeaderFields``.
    var fields: HeaderFields {
        if let parsed, parsed.source == headerFields { return parsed.fields }
        return HeaderFields(headerFields.map { HeaderFields.Field(name: $0.name, value: $0.value) })
    }
}
