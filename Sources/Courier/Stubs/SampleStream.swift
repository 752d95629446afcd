import Foundation

/// A stubbed target's streamed sample: chunks that arrive one by one, each after its delay, so an
/// app tests a streaming screen (a token-by-token answer, a live feed) without a server.
///
/// ```swift
/// var sampleStream: SampleStream? {
///     switch self {
///     case .completion: .events(data: ["Hel", "lo", "[DONE]"], every: 0.05)
///     default: nil
///     }
/// }
/// ```
/// `Provider.stream(_:)` and `Provider.events(_:)` hand the chunks over as they come; `request`
/// waits for all of them and returns them joined.
public struct SampleStream: Sendable, Hashable {
    /// One chunk of a sample stream.
    public struct Chunk: Sendable, Hashable {
        /// The bytes.
        public var data: Data
        /// The seconds to wait, after the previous chunk (or the head), before this one.
        public var delay: TimeInterval

        /// Creates a chunk.
        /// - Parameters:
        ///   - data: The bytes.
        ///   - delay: The seconds to wait before it; none by default.
        public init(_ data: Data, after delay: TimeInterval = 0) {
            self.data = data
            self.delay = delay
        }
    }

    /// The chunks, in order.
    public var chunks: [Chunk]
    /// The response's header fields, such as its `Content-Type`.
    public var headerFields: [String: String]

    /// Creates a sample stream.
    /// - Parameters:
    ///   - chunks: The chunks, in order.
    ///   - headerFields: The response's header fields; none by default.
    public init(_ chunks: [Chunk], headerFields: [String: String] = [:]) {
        self.chunks = chunks
        self.headerFields = headerFields
    }

    /// Lines, one chunk each (ended by a line feed), `interval` seconds apart.
    /// - Parameters:
    ///   - lines: The lines, without line ends (JSON values for an NDJSON sample).
    ///   - interval: The seconds before each line; none by default.
    ///   - contentType: The `Content-Type`; `text/plain; charset=utf-8` by default.
    /// - Returns: The sample stream.
    public static func lines(
        _ lines: [String], every interval: TimeInterval = 0, contentType: String = "text/plain; charset=utf-8"
    ) -> SampleStream {
        SampleStream(
            lines.map { Chunk(Data(($0 + "\n").utf8), after: interval) }, headerFields: ["Content-Type": contentType])
    }

    /// Server-Sent Events, one chunk each, `interval` seconds apart, as `text/event-stream`.
    /// - Parameters:
    ///   - events: The events; an event's ID is written when it differs from the one before, and
    ///     its data is written one `data` line per line, so that a CR, LF or CRLF in it arrives as
    ///     a line feed, exactly as from the network.
    ///   - interval: The seconds before each event; none by default.
    /// - Returns: The sample stream.
    public static func events(_ events: [ServerSentEvent], every interval: TimeInterval = 0) -> SampleStream {
        var lastEventID = ""
        let chunks = events.map { event in
            var text = event.type == "message" ? "" : "event: \(event.type)\n"
            if event.lastEventID != lastEventID {
                text += "id: \(event.lastEventID)\n"
                lastEventID = event.lastEventID
            }
            for line in Self.lines(of: event.data) {
                text += "data: \(line)\n"
            }
            return Chunk(Data((text + "\n").utf8), after: interval)
        }
        return SampleStream(chunks, headerFields: ["Content-Type": "text/event-stream"])
    }

    /// The lines of `text` as an event stream's parser reads them: split at every CRLF, LF or CR
    /// (a CR and an LF are one character to Swift, so the split is on Unicode scalars).
    private static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.unicodeScalars.startIndex
        var index = start
        let scalars = text.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\r" || scalar == "\n" else {
                index = scalars.index(after: index)
                continue
            }
            lines.append(Substring(scalars[start..<index]))
            index = scalars.index(after: index)
            if scalar == "\r", index != scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
            start = index
        }
        lines.append(Substring(scalars[start..<index]))
        return lines
    }

    /// Server-Sent Events of type `message` with these data, `interval` seconds apart.
    /// - Parameters:
    ///   - data: The events' data.
    ///   - interval: The seconds before each event; none by default.
    /// - Returns: The sample stream.
    public static func events(data: [String], every interval: TimeInterval = 0) -> SampleStream {
        events(data.map { ServerSentEvent(data: $0) }, every: interval)
    }

    /// The whole body: the chunks joined.
    public var body: Data {
        chunks.reduce(into: Data()) { $0.append($1.data) }
    }
}
