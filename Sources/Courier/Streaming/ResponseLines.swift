import Foundation

/// A streamed body's lines, decoded as UTF-8, without their line ends.
public struct ResponseLines: AsyncSequence, Sendable {
    /// A line.
    public typealias Element = String

    private let body: ResponseBody

    init(_ body: ResponseBody) {
        self.body = body
    }

    /// Reads the lines.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator())
    }

    /// Reads a body's lines.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseBody.AsyncIterator
        var splitter = LineSplitter()
        var ready: [[UInt8]] = []
        var ended = false

        /// The next line, or `nil` at the end.
        /// - Throws: What the body throws.
        public mutating func next() async throws -> String? {
            while ready.isEmpty {
                guard !ended else { return nil }
                guard let chunk = try await chunks.next() else {
                    ended = true
                    if let last = splitter.unterminated { ready.append(last) }
                    break
                }
                ready = splitter.lines(in: chunk)
            }
            guard !ready.isEmpty else { return nil }
            return String(decoding: ready.removeFirst(), as: UTF8.self)
        }
    }
}

/// A streamed body's non-empty lines, each decoded as JSON.
public struct DecodedLines<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    /// A decoded line.
    public typealias Element = Value

    let lines: ResponseLines
    let response: Response
    let decoder: JSONDecoder

    /// Reads the values.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lines: lines.makeAsyncIterator(), response: response, decoder: decoder)
    }

    /// Reads a body's values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var lines: ResponseLines.AsyncIterator
        let response: Response
        let decoder: JSONDecoder

        /// The next value, or `nil` at the end.
        /// - Throws: What the body throws, or ``CourierError/objectMapping(_:_:)`` for a line
        ///   that does not decode.
        public mutating func next() async throws -> Value? {
            while let line = try await lines.next() {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                do {
                    return try decoder.decode(Value.self, from: Data(line.utf8))
                } catch {
                    throw CourierError.objectMapping(error, response)
                }
            }
            return nil
        }
    }
}
