import Foundation

/// One case of the private-cache table derived from http-tests/cache-tests (the suite behind
/// cache-tests.fyi): requests in order, what the server answers to each, and what the client
/// must see. ``CacheTestsTable`` reads them and runs them through a provider.
@_spi(CacheTests) public struct CacheTestCase: Sendable, Decodable {
    /// The case's identifier in the suite.
    public let id: String
    /// The family of the case (`cc-freshness`, `vary`, …).
    public let family: String
    /// `required` or `optional`.
    public let level: String
    /// What the case checks, in the suite's words.
    public let title: String
    /// The requests, in order.
    public let steps: [Step]

    /// Whether the suite requires a cache to pass the case.
    public var isRequired: Bool { level == "required" }

    /// One request of a case.
    public struct Step: Sendable, Decodable {
        /// The request method; GET by default.
        public let method: String?
        /// Request fields to send.
        public let send: [Field]?
        /// A request body.
        public let sendBody: String?
        /// Another resource of the same case (its path), instead of the case's own.
        public let file: String?
        /// A query string.
        public let query: String?
        /// Seconds that pass after this request before the next.
        public let waitSeconds: Double?
        /// `false` when the client must not follow a redirect.
        public let followRedirects: Bool?
        /// What the server answers.
        public let reply: Reply?
        /// What the client must see.
        public let expect: Expectation?
        /// Which checks of the step are the case's setup (`all`, or named ones).
        public let prerequisite: Prerequisite?
    }

    /// A field, with a literal value or a date some seconds from the server's now.
    public struct Field: Sendable, Decodable {
        /// The name.
        public let name: String
        /// A literal value.
        public let value: String?
        /// A date this many seconds from now, as an HTTP date.
        public let secondsFromNow: Double?
        /// For an expected field: a number the value must exceed.
        public let greaterThan: Double?
    }

    /// What the server answers to a step.
    public struct Reply: Sendable, Decodable {
        /// The status code; 200 by default.
        public let status: Int?
        /// The header fields.
        public let fields: [Field]?
        /// The body; a body unique to the request by default.
        public let body: String?
        /// Whether `Location` and `Content-Location` are made absolute.
        public let absoluteLocations: Bool?
        /// Whether the server closes the connection instead of answering.
        public let hangUp: Bool?
        /// Seconds the server takes before it answers.
        public let delaySeconds: Double?
    }

    /// What the client must see after a step.
    public struct Expectation: Sendable, Decodable {
        /// `cache` (no new answer from the server), `server`, `etag` or `lm` (a validation with
        /// `If-None-Match` or `If-Modified-Since` that the server answered with a 304).
        public let source: String?
        /// Fields the answer must carry (with these values, or greater than a number).
        public let fields: [Field]?
        /// Fields the answer must not carry.
        public let fieldsAbsent: [Field]?
        /// The status the client must get.
        public let status: Int?
        /// Fields the server must have received.
        public let sentFields: [Field]?
        /// The method the server must have seen.
        public let methodSeen: String?
        /// Whether any status will do.
        public let anyStatus: Bool?
    }

    /// The setup checks of a step: all of them, or the named ones.
    public enum Prerequisite: Sendable, Decodable {
        /// Every check of the step is setup.
        case all
        /// These checks are setup.
        case checks([String])

        /// Decodes `"all"` or a list of check names.
        /// - Parameter decoder: The decoder.
        /// - Throws: A decoding error for anything else.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([String].self) {
                self = .checks(list)
            } else {
                _ = try container.decode(String.self)
                self = .all
            }
        }
    }
}
