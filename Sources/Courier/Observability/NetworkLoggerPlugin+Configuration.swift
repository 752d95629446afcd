import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLoggerPlugin {
    /// What a ``NetworkLoggerPlugin`` logs.
    public struct LogOptions: OptionSet, Sendable {
        /// The option bits.
        public let rawValue: Int

        /// Creates options from their bits.
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The request's method, before its URL.
        public static let requestMethod = LogOptions(rawValue: 1 << 0)
        /// The request's body.
        public static let requestBody = LogOptions(rawValue: 1 << 1)
        /// The request's headers (sensitive ones redacted).
        public static let requestHeaders = LogOptions(rawValue: 1 << 2)
        /// The request as one `curl` command (sensitive headers redacted) instead of the above.
        public static let formatRequestAscURL = LogOptions(rawValue: 1 << 3)
        /// The body of a successful response.
        public static let successResponseBody = LogOptions(rawValue: 1 << 4)
        /// The body of a failed request's response.
        public static let errorResponseBody = LogOptions(rawValue: 1 << 5)
        /// The response's headers (sensitive ones redacted).
        public static let responseHeaders = LogOptions(rawValue: 1 << 6)

        /// Method and headers.
        public static let `default`: LogOptions = [.requestMethod, .requestHeaders]
        /// Everything but the cURL form: method, headers and bodies both ways.
        public static let verbose: LogOptions = [
            .requestMethod, .requestHeaders, .requestBody, .successResponseBody, .errorResponseBody, .responseHeaders,
        ]
    }

    /// Turns entries and bodies into text.
    public struct Formatter: Sendable {
        /// Formats an entry from its identifier (such as `Request #3 attempt 1`), its message, the
        /// target and the time.
        public var entry:
            @Sendable (_ identifier: String, _ message: String, _ target: any TargetType, _ date: Date) -> String
        /// Formats a request body that is not binary (already cut to the size limit).
        public var requestData: @Sendable (Data) -> String
        /// Formats a response body that is not binary (already cut to the size limit).
        public var responseData: @Sendable (Data) -> String

        /// Creates a formatter; each part has a default.
        /// - Parameters:
        ///   - entry: Formats an entry; `Courier: [<ISO 8601 time>] <identifier>: <message>` by default.
        ///   - requestData: Formats a request body; UTF-8 text, or a summary of binary data, by default.
        ///   - responseData: Formats a response body; the same by default.
        public init(
            entry: @escaping @Sendable (String, String, any TargetType, Date) -> String = Formatter.defaultEntry,
            requestData: @escaping @Sendable (Data) -> String = BodySummary.text,
            responseData: @escaping @Sendable (Data) -> String = BodySummary.text
        ) {
            self.entry = entry
            self.requestData = requestData
            self.responseData = responseData
        }

        /// `Courier: [<ISO 8601 time>] <identifier>: <message>`.
        @Sendable public static func defaultEntry(
            _ identifier: String, _ message: String, _ target: any TargetType, _ date: Date
        ) -> String {
            "Courier: [\(ISO8601DateFormatter().string(from: date))] \(identifier): \(message)"
        }
    }

    /// What a ``NetworkLoggerPlugin`` logs, how and where.
    public struct Configuration: Sendable {
        /// Turns entries and bodies into text.
        public var formatter: Formatter
        /// Receives the entries of each hook call; prints them by default.
        public var output: @Sendable (_ target: any TargetType, _ entries: [String]) -> Void
        /// What is logged.
        public var logOptions: LogOptions
        /// What is hidden: the URL's user information, sensitive headers, and credential query
        /// items and body fields (see ``Redaction``).
        public var redaction: Redaction
        /// Headers whose values are shown as `***` (compared without case): the headers of
        /// ``redaction``.
        public var redactedHeaders: Set<String> {
            get { redaction.headers }
            set { redaction.headers = newValue }
        }
        /// The largest part of a body that is shown; the rest is counted.
        public var maximumBodyBytes: Int
        /// The clock of the entries' times and durations.
        public var clock: @Sendable () -> Date

        /// Creates a configuration; each setting has a default.
        /// - Parameters:
        ///   - formatter: Turns entries and bodies into text.
        ///   - output: Receives the entries; prints each by default.
        ///   - logOptions: What is logged; ``LogOptions/default`` by default.
        ///   - redaction: What to hide; ``Redaction/default`` by default.
        ///   - maximumBodyBytes: The largest part of a body shown; 4 KiB by default.
        ///   - clock: The clock; the system's by default.
        public init(
            formatter: Formatter = Formatter(),
            output: @escaping @Sendable (any TargetType, [String]) -> Void = Configuration.printEntries,
            logOptions: LogOptions = .default,
            redaction: Redaction = .default,
            maximumBodyBytes: Int = 4096,
            clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.formatter = formatter
            self.output = output
            self.logOptions = logOptions
            self.redaction = redaction
            self.maximumBodyBytes = maximumBodyBytes
            self.clock = clock
        }

        /// Prints each entry on its own line.
        @Sendable public static func printEntries(_ target: any TargetType, _ entries: [String]) {
            for entry in entries { print(entry) }
        }
    }
}
