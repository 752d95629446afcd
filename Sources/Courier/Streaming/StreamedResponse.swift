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

    init(response: Response, body: TransportBody) {
        self.response = response
        self.body = ResponseBody(body, request: response.request)
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

    init(_ base: TransportBody, request: URLRequest?) {
        self.base = base
        self.request = request
    }

    /// Reads the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), request: request)
    }

    /// Reads a body's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: TransportBody.AsyncIterator
        let request: URLRequest?

        /// The next chunk, or `nil` at the end.
        /// - Throws: ``CourierError/cancelled``, or ``CourierError/transport(_:request:)`` when
        ///   the transfer fails.
        public mutating func next() async throws -> Data? {
            do {
                return try await base.next()
            } catch {
                if error is CancellationError || Task.isCancelled { throw CourierError.cancelled }
                let failure = TransportFailure.normalized(error)
                throw CourierError.transport(failure, request: request ?? URLRequest(url: URL(fileURLWithPath: "/")))
            }
        }
    }
}
