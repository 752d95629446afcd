import Foundation

/// Turns the bytes of a `text/event-stream` body into ``ServerSentEvent``s, chunk by chunk,
/// exactly as the WHATWG HTML standard interprets an event stream: a leading byte order mark is
/// dropped; lines end with CRLF, LF or CR; a line starting with a colon is a comment; `event`,
/// `data` (one line each, joined by line feeds), `id` (ignored when it holds a NUL) and `retry`
/// (ASCII digits only) fields; an event is dispatched at a blank line, not at all when it has no
/// data, and an event not ended by a blank line when the stream ends is discarded, its `id` with
/// it. A line or an event's data past its ``StreamingLimits`` is an error, never cut.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in try parser.parse(chunk) { print(event.type, event.data) }
/// }
/// ```
public struct ServerSentEventParser: Sendable {
    private var lines: LineSplitter
    /// The first bytes of the stream, until they tell whether it starts with a byte order mark.
    private var start: [UInt8]? = []
    private var data = ""
    private var dataLength = 0
    private var hasData = false
    private var eventType = ""
    /// The `id` field's value so far (the standard's "last event ID buffer"): it becomes
    /// ``lastEventID`` only when a blank line dispatches its event.
    private var idBuffer: String
    private let maximumEventLength: Int
    /// The limit passed, once one was: every later chunk fails with it too.
    private var failure: StreamingError?
    /// The last event ID: the ID in force when the last event was dispatched (or a block of
    /// fields without data was ended by its blank line). An `id` field of an event not yet ended
    /// does not count, so a stream cut in the middle of an event resumes before it. Sent as
    /// `Last-Event-ID` when reconnecting.
    public private(set) var lastEventID = ""
    /// The reconnection time the stream asked for with a `retry` field, in milliseconds, if any.
    public private(set) var retryMilliseconds: Int?

    /// Creates a parser at the start of a stream.
    /// - Parameters:
    ///   - lastEventID: The last event ID so far: an event source's, kept across reconnections
    ///     until a stream sets another; empty by default.
    ///   - limits: The longest line and the largest event data; ``StreamingLimits/standard`` by
    ///     default.
    public init(lastEventID: String = "", limits: StreamingLimits = .standard) {
        self.lastEventID = lastEventID
        idBuffer = lastEventID
        lines = LineSplitter(maximumLineLength: limits.maximumLineLength)
        maximumEventLength = max(1, limits.maximumEventLength)
    }

    /// Creates a parser whose lines may have at most `maximumLineLength` bytes.
    /// - Parameters:
    ///   - lastEventID: The last event ID so far.
    ///   - maximumLineLength: The longest line, in bytes.
    @available(*, deprecated, message: "Use init(lastEventID:limits:); a longer line is now an error, not cut.")
    public init(lastEventID: String = "", maximumLineLength: Int) {
        self.init(lastEventID: lastEventID, limits: StreamingLimits(maximumLineLength: maximumLineLength))
    }

    /// Parses the next chunk of the stream.
    /// - Parameter chunk: The bytes, in stream order; chunks may split lines, line ends and UTF-8
    ///   sequences anywhere.
    /// - Returns: The events the chunk completes, in order.
    /// - Throws: ``StreamingError`` when a line or an event's data passes its limit (the events
    ///   completed before it in this chunk are lost with the throw: use ``parse(_:into:)`` to keep
    ///   them).
    public mutating func parse(_ chunk: Data) throws(StreamingError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try parse(chunk, into: &events)
        return events
    }

    /// Parses the next chunk of the stream, appending the events it completes to `events`.
    /// - Parameters:
    ///   - chunk: The bytes, in stream order.
    ///   - events: Receives the completed events, in order, also those before a failure.
    /// - Throws: ``StreamingError`` when a line or an event's data passes its limit; every later
    ///   call throws it again.
    public mutating func parse(_ chunk: Data, into events: inout [ServerSentEvent]) throws(StreamingError) {
        if let failure { throw failure }
        guard let bytes = withoutByteOrderMark(chunk) else { return }
        var ended: [[UInt8]] = []
        var splitFailure: StreamingError?
        do {
            try lines.lines(in: bytes, into: &ended)
        } catch {
            splitFailure = error
        }
        do {
            // The lines ended before a line too long come first, in stream order.
            try process(ended, into: &events)
        } catch {
            failure = error
            throw error
        }
        if let splitFailure {
            failure = splitFailure
            throw splitFailure
        }
    }

    /// `chunk` without a byte order mark at the start of the stream; `nil` while the first bytes
    /// may still be the start of one (a mark may itself be split between chunks).
    private mutating func withoutByteOrderMark(_ chunk: Data) -> Data? {
        guard var first = start else { return chunk }
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        first.append(contentsOf: chunk)
        if first.count < mark.count, mark.starts(with: first) {
            start = first
            return nil
        }
        start = nil
        return Data(first.starts(with: mark) ? first.dropFirst(mark.count) : first[...])
    }

    /// The lines, in order, until one passes a limit.
    private mutating func process(_ ended: [[UInt8]], into events: inout [ServerSentEvent]) throws(StreamingError) {
        for line in ended {
            if let event = try process(line) { events.append(event) }
        }
    }

    /// One line: a blank line dispatches, a comment is skipped, anything else is a field.
    private mutating func process(_ line: [UInt8]) throws(StreamingError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        try field(name, value)
        return nil
    }

    private mutating func field(_ name: String, _ value: ArraySlice<UInt8>) throws(StreamingError) {
        switch name {
        case "event": eventType = String(decoding: value, as: UTF8.self)
        case "data":
            dataLength += value.count + 1
            guard dataLength - 1 <= maximumEventLength else {
                data = ""
                throw .eventTooLarge(limit: maximumEventLength)
            }
            data += String(decoding: value, as: UTF8.self)
            data += "\n"
            hasData = true
        case "id": if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                retryMilliseconds = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
            }
        default: break
        }
    }

    /// A blank line: the ID in force becomes the last event ID, then the event, if it has data.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data = ""
            dataLength = 0
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        var text = data
        if text.hasSuffix("\n") { text.removeLast() }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: text, lastEventID: lastEventID)
    }
}
