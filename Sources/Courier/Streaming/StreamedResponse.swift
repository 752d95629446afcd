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
/// the iteration with a ``CourierError`` (`.transport` for the network, `.cancelled`).
public struct StreamedResponse: Sendable {
    /// The validated head, with an empty body: the response the plugins saw in `didReceive` and
    /// `process`.
    public let response: Response
    /// The body, chunk by chunk.
    public let body: ResponseBody

    init(response: Response, body: TransportBody, tally: StreamTally? = nil) {
        self.response = response
        self.body = ResponseBody(body, request: response.request, tally: tally)
    }

    /// The HTTP status code.
    public var statusCode: Int { response.statusCode }
    /// The header fields, in the order received.
    public var headerFields: HeaderFields { response.headerFields }

    /// The body's lines (ended by LF, CRLF or CR, decoded as UTF-8), without their line ends; a
    /// last line without a line end counts too.
    public var lines: ResponseLines { ResponseLines(body) }

    /// The body's Server-Sent Events (one connection; `Provider.events(_:)` reconnects).
    public var events: ServerSentEvents { ServerSentEvents(body) }

    /// The body's Server-Sent Events up to `terminator`, which is not handed over and ends the
    /// transfer.
    /// ```swift
    /// for try await event in streamed.events(until: .data("[DONE]")) { print(event.data) }
    /// ```
    /// - Parameter terminator: The event that ends the stream.
    /// - Returns: The events before it.
    public func events(until terminator: EventTerminator) -> ServerSentEvents {
        ServerSentEvents(body, terminator: terminator)
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
    private let request: URLRequest?
    private let tally: StreamTally?

    init(_ base: TransportBody, request: URLRequest?, tally: StreamTally? = nil) {
        self.base = base
        self.request = request
        self.tally = tally
    }

    /// The most unread bytes the body has held in memory at once so far; beyond a few MiB a
    /// backlog waits in a temporary file, or the transfer waits for the reader.
    public var peakMemoryBytes: Int { base.peakMemoryBytes }

    /// Reads the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), request: request, reading: tally.map(Reading.init))
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
        let request: URLRequest?
        let reading: Reading?
        var tally: StreamTally? { reading?.tally }

        /// The next chunk, or `nil` at the end.
        /// - Throws: ``CourierError/cancelled``, or ``CourierError/transport(_:request:)`` when
        ///   the transfer fails.
        public mutating func next() async throws -> Data? {
            let chunk: Data?
            do {
                chunk = try await base.next()
            } catch {
                if error is CancellationError || Task.isCancelled {
                    tally?.end(.stopped)
                    throw CourierError.cancelled
                }
                let courierError = CourierError.exchange(
                    error, request: request ?? URLRequest(url: URL(fileURLWithPath: "/")))
                tally?.end(.failed(courierError))
                throw courierError
            }
            guard let chunk else {
                tally?.end(.completed)
                return nil
            }
            tally?.received(chunk.count)
            return chunk
        }
    }
}
