import Foundation

/// The Server-Sent Events of one streamed body (see ``ServerSentEventParser``).
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    private let body: ResponseBody

    init(_ body: ResponseBody) {
        self.body = body
    }

    /// Reads the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator())
    }

    /// Reads the events of a reconnection, whose last event ID carries over until the stream
    /// sets another.
    func makeAsyncIterator(lastEventID: String) -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), lastEventID: lastEventID)
    }

    /// Reads a body's events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseBody.AsyncIterator
        /// The parser, with the stream's last event ID and retry so far.
        public private(set) var parser = ServerSentEventParser()
        var ready: [ServerSentEvent] = []

        init(chunks: ResponseBody.AsyncIterator, lastEventID: String = "") {
            self.chunks = chunks
            self.parser = ServerSentEventParser(lastEventID: lastEventID)
        }

        /// The next event, or `nil` when the stream ends (an unterminated event is discarded).
        /// - Throws: What the body throws.
        public mutating func next() async throws -> ServerSentEvent? {
            while ready.isEmpty {
                guard let chunk = try await chunks.next() else { return nil }
                ready = parser.parse(chunk)
            }
            return ready.removeFirst()
        }
    }
}
