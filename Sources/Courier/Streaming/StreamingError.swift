import Foundation

/// Why a stream could not be read as asked: it is not an event stream, it passed one of its
/// ``StreamingLimits``, or an ``EventSource`` ran out of reconnections.
///
/// A stream ends with it wrapped in ``CourierError/underlying(_:_:)``, with the response head:
/// ```swift
/// do {
///     for try await line in try await provider.stream(.export).lines { store(line) }
/// } catch let error as CourierError {
///     if let streaming = error.underlyingError as? StreamingError, streaming.code == .lineTooLong {
///         print("a line passed \(streaming.limit ?? 0) bytes")
///     }
/// }
/// ```
/// The codes are an open set that later versions extend: a `switch` over ``code`` needs a
/// `default`.
public struct StreamingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, one of the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `lineTooLong`.
        public let description: String

        private init(_ name: String) {
            description = name
        }

        /// The answer to an event stream request is not `text/event-stream`.
        public static let notAnEventStream = Code("notAnEventStream")
        /// A line passed ``StreamingLimits/maximumLineLength``.
        public static let lineTooLong = Code("lineTooLong")
        /// An event's data passed ``StreamingLimits/maximumEventLength`` before its blank line.
        public static let eventTooLarge = Code("eventTooLarge")
        /// A reader fell so far behind an engine without backpressure that the unread bytes
        /// passed ``StreamingLimits/maximumBacklog``; the transfer was cancelled.
        public static let backlogTooLarge = Code("backlogTooLarge")
        /// A stream read up to an ``EventTerminator`` ended without it: the answer is cut short
        /// (a connection closed mid-answer looks like a normal end when the body has no length).
        public static let endedBeforeTerminator = Code("endedBeforeTerminator")
        /// An ``EventSource`` failed to (re)connect or read ``EventReconnection/maximumAttempts``
        /// times in a row; ``StreamingError/lastError`` holds the last failure.
        public static let reconnectionsExhausted = Code("reconnectionsExhausted")
    }

    /// What went wrong.
    public let code: Code
    /// The limit passed, in bytes, for the limit codes.
    public let limit: Int?
    /// The `Content-Type` received, for ``Code/notAnEventStream`` (empty when there was none).
    public let contentType: String?
    /// The (re)connections tried in a row, for ``Code/reconnectionsExhausted``.
    public let attempts: Int?
    /// The last failure, for ``Code/reconnectionsExhausted``. Not compared by `==`.
    public let lastError: CourierError?

    private init(
        _ code: Code, limit: Int? = nil, contentType: String? = nil, attempts: Int? = nil,
        lastError: CourierError? = nil
    ) {
        self.code = code
        self.limit = limit
        self.contentType = contentType
        self.attempts = attempts
        self.lastError = lastError
    }

    /// The answer is not an event stream.
    /// - Parameter contentType: The `Content-Type` received; empty when there was none.
    /// - Returns: The error.
    public static func notAnEventStream(contentType: String) -> StreamingError {
        StreamingError(.notAnEventStream, contentType: contentType)
    }

    /// A line passed `limit` bytes.
    /// - Parameter limit: The limit, in bytes.
    /// - Returns: The error.
    public static func lineTooLong(limit: Int) -> StreamingError {
        StreamingError(.lineTooLong, limit: limit)
    }

    /// An event's data passed `limit` bytes.
    /// - Parameter limit: The limit, in bytes.
    /// - Returns: The error.
    public static func eventTooLarge(limit: Int) -> StreamingError {
        StreamingError(.eventTooLarge, limit: limit)
    }

    /// The unread backlog passed `limit` bytes.
    /// - Parameter limit: The limit, in bytes.
    /// - Returns: The error.
    public static func backlogTooLarge(limit: Int) -> StreamingError {
        StreamingError(.backlogTooLarge, limit: limit)
    }

    /// The stream ended before its terminator.
    public static let endedBeforeTerminator = StreamingError(.endedBeforeTerminator)

    /// An event source gave up after `attempts` failures in a row.
    /// - Parameters:
    ///   - attempts: The (re)connections tried in a row.
    ///   - lastError: The last failure.
    /// - Returns: The error.
    public static func reconnectionsExhausted(attempts: Int, lastError: CourierError) -> StreamingError {
        StreamingError(.reconnectionsExhausted, attempts: attempts, lastError: lastError)
    }

    /// A sentence describing the problem.
    public var description: String {
        switch code {
        case .notAnEventStream:
            let type = contentType ?? ""
            return "The response is \(type.isEmpty ? "without a Content-Type" : type), not text/event-stream."
        case .lineTooLong: return "A line of the stream is longer than the limit of \(limit ?? 0) bytes."
        case .eventTooLarge: return "An event's data grew past the limit of \(limit ?? 0) bytes."
        case .backlogTooLarge:
            return "The reader fell \(limit ?? 0) bytes behind the network; the transfer was cancelled."
        case .endedBeforeTerminator: return "The stream ended before its terminator: the answer is cut short."
        case .reconnectionsExhausted:
            let cause = lastError.map { ": \($0.localizedDescription)" } ?? ""
            return "The event source failed \(attempts ?? 0) times in a row\(cause)"
        default: return code.description
        }
    }

    /// Equal when the code and the details are; ``lastError`` is not compared.
    public static func == (lhs: StreamingError, rhs: StreamingError) -> Bool {
        lhs.code == rhs.code && lhs.limit == rhs.limit && lhs.contentType == rhs.contentType
            && lhs.attempts == rhs.attempts
    }

    /// Hashes what `==` compares.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(limit)
        hasher.combine(contentType)
        hasher.combine(attempts)
    }
}
