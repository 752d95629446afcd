import Foundation

/// The Server-Sent Events of one streamed body (see ``ServerSentEventParser``), up to an
/// optional ``EventTerminator``.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    private let body: ResponseBody
    private let terminator: EventTerminator?

    init(_ body: ResponseBody, terminator: EventTerminator? = nil) {
        self.body = body
        self.terminator = terminator
    }

    /// Reads the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), terminator: terminator)
    }

    /// Reads the events of a reconnection, whose last event ID carries over until the stream
    /// sets another.
    func makeAsyncIterator(lastEventID: String) -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), terminator: terminator, lastEventID: lastEventID)
    }

    /// Reads a body's events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseBody.AsyncIterator?
        let terminator: EventTerminator?
        /// The parser, with the stream's last event ID and retry so far.
        public private(set) var parser = ServerSentEventParser()
        var ready: [ServerSentEvent] = []
        /// Whether the terminator arrived: the stream is over and is not to be reconnected.
        private(set) var isTerminated = false

        init(chunks: ResponseBody.AsyncIterator, terminator: EventTerminator?, lastEventID: String = "") {
            self.chunks = chunks
            self.terminator = terminator
            self.parser = ServerSentEventParser(lastEventID: lastEventID)
            chunks.tally?.countsEvents()
        }

        /// The next event, or `nil` when the stream ends or its terminator arrives (an
        /// unterminated event is discarded).
        /// - Throws: What the body throws.
        public mutating func next() async throws -> ServerSentEvent? {
            while ready.isEmpty {
                guard let chunk = try await chunks?.next() else { return nil }
                ready = parser.parse(chunk)
            }
            let event = ready.removeFirst()
            if let terminator, terminator.ends(at: event) {
                isTerminated = true
                ready = []
                chunks?.tally?.end(.completed)
                // Dropping the body ends the transfer now, not when the caller drops this iterator.
                chunks = nil
                return nil
            }
            chunks?.tally?.countEvent()
            return event
        }
    }
}
