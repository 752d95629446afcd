import Foundation

/// The Server-Sent Events of one streamed body (see ``ServerSentEventParser``), up to an
/// optional ``EventTerminator``.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    private let body: ResponseBody
    private let terminator: EventTerminator?
    private let limits: StreamingLimits

    init(_ body: ResponseBody, terminator: EventTerminator? = nil, limits: StreamingLimits) {
        self.body = body
        self.terminator = terminator
        self.limits = limits
    }

    /// Reads the events.
    public func makeAsyncIterator() -> AsyncIterator {
        makeAsyncIterator(lastEventID: "")
    }

    /// Reads the events of a reconnection, whose last event ID carries over until the stream
    /// sets another.
    func makeAsyncIterator(lastEventID: String) -> AsyncIterator {
        AsyncIterator(
            chunks: body.makeAsyncIterator(), terminator: terminator,
            parser: ServerSentEventParser(lastEventID: lastEventID, limits: limits))
    }

    /// Reads a body's events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseBody.AsyncIterator?
        let terminator: EventTerminator?
        /// The parser, with the stream's last event ID and retry so far.
        public private(set) var parser: ServerSentEventParser
        var ready: [ServerSentEvent] = []
        var next = 0
        /// A limit passed, thrown once the events before it are handed out.
        var failure: CourierError?
        /// Whether the terminator arrived: the stream is over and is not to be reconnected.
        private(set) var isTerminated = false

        init(chunks: ResponseBody.AsyncIterator, terminator: EventTerminator?, parser: ServerSentEventParser) {
            self.chunks = chunks
            self.terminator = terminator
            self.parser = parser
            chunks.tally?.countsEvents()
        }

        /// The next event, or `nil` when the stream ends or its terminator arrives (an
        /// unterminated event is discarded). A stream with a terminator that ends without it
        /// throws ``StreamingError/endedBeforeTerminator``.
        /// - Throws: What the body throws, or ``CourierError/underlying(_:_:)`` with a
        ///   ``StreamingError`` when a line or an event passes its limit (after the events before
        ///   it).
        public mutating func next() async throws -> ServerSentEvent? {
            while next == ready.count {
                ready.removeAll(keepingCapacity: true)
                next = 0
                if let failure {
                    // Dropping the body ends the transfer now.
                    (self.failure, chunks) = (nil, nil)
                    throw failure
                }
                guard let chunk = try await chunks?.next() else {
                    // A stream read up to its terminator that ends without it is cut short.
                    guard terminator != nil, !isTerminated, let chunks else { return nil }
                    self.chunks = nil
                    throw CourierError.underlying(StreamingError.endedBeforeTerminator, chunks.head)
                }
                do {
                    try parser.parse(chunk, into: &ready)
                } catch {
                    failure = chunks?.fail(error)
                }
            }
            let event = ready[next]
            next += 1
            if let terminator, terminator.ends(at: event) {
                isTerminated = true
                ready = []
                next = 0
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
