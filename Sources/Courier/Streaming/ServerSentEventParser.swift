import Foundation

/// Turns the bytes of a `text/event-stream` body into ``ServerSentEvent``s, chunk by chunk,
/// exactly as the WHATWG HTML standard interprets an event stream: a leading byte order mark is
/// dropped; lines end with CRLF, LF or CR; a line starting with a colon is a comment; `event`,
/// `data` (one line each, joined by line feeds), `id` (ignored when it holds a NUL) and `retry`
/// (ASCII digits only) fields; an event is dispatched at a blank line, not at all when it has no
/// data, and an event not ended by a blank line when the stream ends is discarded.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in parser.parse(chunk) { print(event.type, event.data) }
/// }
/// ```
public struct ServerSentEventParser: Sendable {
    private var lines: LineSplitter
    /// The first bytes of the stream, until they tell whether it starts with a byte order mark.
    private var start: [UInt8]? = []
    private var data = ""
    private var hasData = false
    private var eventType = ""
    /// The last event ID so far: sent as `Last-Event-ID` when reconnecting.
    public private(set) var lastEventID = ""
    /// The reconnection time the stream asked for with a `retry` field, in milliseconds, if any.
    public private(set) var retryMilliseconds: Int?

    /// Creates a parser at the start of a stream.
    /// - Parameters:
    ///   - lastEventID: The last event ID so far: an event source's, kept across reconnections
    ///     until a stream sets another; empty by default.
    ///   - maximumLineLength: The most bytes of a line kept (a longer line is cut there, so a
    ///     hostile stream cannot grow memory without bound); 1 MiB by default.
    public init(lastEventID: String = "", maximumLineLength: Int = 1 << 20) {
        self.lastEventID = lastEventID
        lines = LineSplitter(maximumLineLength: maximumLineLength)
    }

    /// Parses the next chunk of the stream.
    /// - Parameter chunk: The bytes, in stream order; chunks may split lines, line ends and UTF-8
    ///   sequences anywhere.
    /// - Returns: The events the chunk completes, in order.
    public mutating func parse(_ chunk: Data) -> [ServerSentEvent] {
        var bytes = chunk
        if var first = start {
            // A byte order mark may itself be split between chunks.
            let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
            first.append(contentsOf: chunk)
            if first.count < mark.count, mark.starts(with: first) {
                start = first
                return []
            }
            start = nil
            bytes = Data(first.starts(with: mark) ? first.dropFirst(mark.count) : first[...])
        }
        var events: [ServerSentEvent] = []
        for line in lines.lines(in: bytes) {
            if let event = process(line) { events.append(event) }
        }
        return events
    }

    /// One line: a blank line dispatches, a comment is skipped, anything else is a field.
    private mutating func process(_ line: [UInt8]) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        field(name, String(decoding: value, as: UTF8.self))
        return nil
    }

    private mutating func field(_ name: String, _ value: String) {
        switch name {
        case "event": eventType = value
        case "data":
            data += value
            data += "\n"
            hasData = true
        case "id": if !value.unicodeScalars.contains("\u{0}") { lastEventID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                retryMilliseconds = Int(value) ?? Int.max
            }
        default: break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        var text = data
        if text.hasSuffix("\n") { text.removeLast() }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: text, lastEventID: lastEventID)
    }
}
