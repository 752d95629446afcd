import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose head was accepted and whose body is still arriving: what
/// `Provider.stream(_:)` returns.
///
/// ```swift
/// let streamed = try await provider.stream(.completion(prompt))
/// for try await line in streamed.lines { print(line) }
/// ```
/// Read the body once, through ``body``, ``lines``, ``decodedLines(as:using:)`` or ``events``.
/// Stopping early (a `break`, a cancelled task) ends the transfer. A failure after the head ends
/// the iteration with a ``CourierError``: `.transport` for the network (a wait for the next chunk
/// longer than the target's `timeoutInterval` is `.transport` with
/// ``TransportFailure/Kind/timedOut``), `.underlying` with a ``StreamingError`` for a passed
/// ``StreamingLimits`` bound, `.cancelled`.
public struct StreamedResponse: Sendable {
    /// The validated head, with an empty body: the response the plugins saw in `didReceive` and
    /// `process`.
    public let response: Response
    /// The body, chunk by chunk.
    public let body: ResponseBody

    /// The bounds of the body's lines and events.
    let limits: StreamingLimits

    init(
        response: Response, body: TransportBody, tally: StreamTally? = nil, limits: StreamingLimits = .standard,
        timeouts: StreamTimeouts? = nil
    ) {
        self.response = response
        self.limits = limits
        self.body = ResponseBody(body, head: response, tally: tally, timeouts: timeouts)
    }

    /// The HTTP status code.
    public var statusCode: Int { response.statusCode }
    /// The header fields, in the order received.
    public var headerFields: HeaderFields { response.headerFields }

    /// The body's lines (ended by LF, CRLF or CR, decoded as UTF-8), without their line ends; a
    /// last line without a line end counts too. A line longer than
    /// ``StreamingLimits/maximumLineLength`` ends the iteration with
    /// ``StreamingError/Code/lineTooLong``.
    public var lines: ResponseLines { ResponseLines(body, limits: limits) }

    /// The body's Server-Sent Events (one connection; `Provider.events(_:)` reconnects).
    public var events: ServerSentEvents { ServerSentEvents(body, limits: limits) }

    /// The body's Server-Sent Events up to `terminator`, which is not handed over and ends the
    /// transfer.
    /// ```swift
    /// for try await event in streamed.events(until: .data("[DONE]")) { print(event.data) }
    /// ```
    /// - Parameter terminator: The event that ends the stream.
    /// - Returns: The events before it.
    public func events(until terminator: EventTerminator) -> ServerSentEvents {
        ServerSentEvents(body, terminator: terminator, limits: limits)
    }

    /// Each non-empty line decoded as JSON (NDJSON, JSON Lines).
    /// - Parameters:
    ///   - type: The type of each line.
    ///   - decoder: The decoder; a new `JSONDecoder` by default.
    /// - Returns: The decoded values; a line that does not decode ends the iteration with
    ///   ``CourierError/objectMapping(_:_:)``.
    public func decodedLines<Value: Decodable & Sendable>(
        as type: Value.Type, using decoder: JSONDecoder = JSONDecoder()
    ) -> DecodedLines<Value> {
        DecodedLines(lines: lines, response: response, decoder: decoder)
    }
}

/// A streamed response's body: chunks of bytes as they arrive.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk.
    public typealias Element = Data

    private let base: TransportBody
    /// The accepted head, for the errors of the body.
    let head: Response
    private let tally: StreamTally?
    private let timeouts: StreamTimeouts?

    init(_ base: TransportBody, head: Response, tally: StreamTally? = nil, timeouts: StreamTimeouts? = nil) {
        self.base = base
        self.head = head
        self.tally = tally
        self.timeouts = timeouts
    }

    /// The most unread bytes the body has held in memory at once so far; beyond a few MiB a
    /// backlog waits in a temporary file, or the transfer waits for the reader.
    public var peakMemoryBytes: Int { base.peakMemoryBytes }

    /// The most unread bytes the body has held at once so far, in memory and in its temporary file
    /// together (bounded by ``StreamingLimits/maximumBacklog``).
    public var peakBacklogBytes: Int { base.peakBacklogBytes }

    /// Reads the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), head: head, reading: tally.map(Reading.init),
            timeouts: timeouts?.nextWait == nil ? nil : timeouts)
    }

    /// The one reading of a body: when it ends without reaching the end (the reader broke out of
    /// its loop or dropped the iterator), the stream is over, stopped by the reader.
    final class Reading: Sendable {
        let tally: StreamTally

        init(_ tally: StreamTally) {
            self.tally = tally
        }

        deinit {
            tally.end(.stopped)
        }
    }

    /// Reads a body's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: TransportBody.AsyncIterator
        let head: Response
        let reading: Reading?
        /// The limits of each wait, when there are any.
        let timeouts: StreamTimeouts?
        var tally: StreamTally? { reading?.tally }

        /// The next chunk, or `nil` at the end.
        /// - Throws: ``CourierError/cancelled``, ``CourierError/transport(_:request:)`` when the
        ///   transfer fails or the next chunk is later than the target's `timeoutInterval`, or
        ///   ``CourierError/underlying(_:_:)`` with ``StreamingError/Code/backlogTooLarge``.
        public mutating func next() async throws -> Data? {
            let chunk: Data?
            do {
                if let timeouts {
                    let iteration = base.iteration
                    chunk = try await timeouts.bound { try await iteration.next() }
                } else {
                    chunk = try await base.next()
                }
            } catch {
                if error is CancellationError || Task.isCancelled {
                    tally?.end(.stopped)
                    throw CourierError.cancelled
                }
                throw fail(error)
            }
            guard let chunk else {
                tally?.end(.completed)
                return nil
            }
            tally?.received(chunk.count)
            return chunk
        }

        /// Ends the stream with `error`, as a ``CourierError`` that carries the head, and tells
        /// the plugins.
        /// - Returns: The error to throw.
        func fail(_ error: any Error) -> CourierError {
            let courierError: CourierError
            if let streaming = error as? StreamingError {
                courierError = .underlying(streaming, head)
            } else {
                courierError = .exchange(error, request: head.request ?? URLRequest(url: URL(fileURLWithPath: "/")))
            }
            tally?.end(.failed(courierError))
            return courierError
        }
    }
}
