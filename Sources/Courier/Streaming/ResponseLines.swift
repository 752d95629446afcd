import Foundation

/// A streamed body's lines, decoded as UTF-8, without their line ends.
public struct ResponseLines: AsyncSequence, Sendable {
    /// A line.
    public typealias Element = String

    private let body: ResponseBody
    private let limits: StreamingLimits

    init(_ body: ResponseBody, limits: StreamingLimits) {
        self.body = body
        self.limits = limits
    }

    /// Reads the lines.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            chunks: body.makeAsyncIterator(), splitter: LineSplitter(maximumLineLength: limits.maximumLineLength))
    }

    /// Reads a body's lines.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseBody.AsyncIterator
        var splitter: LineSplitter
        var ready: [[UInt8]] = []
        var next = 0
        var phase = Phase.reading

        /// Where the reading is: lines that a chunk ended are handed out before the body's end
        /// or a line too long.
        enum Phase {
            case reading
            case ended
            case failing(CourierError)
        }

        /// The next line, or `nil` at the end.
        /// - Throws: What the body throws, or ``CourierError/underlying(_:_:)`` with
        ///   ``StreamingError/Code/lineTooLong``.
        public mutating func next() async throws -> String? {
            while next == ready.count {
                ready.removeAll(keepingCapacity: true)
                next = 0
                switch phase {
                case .reading: break
                case .ended: return nil
                case .failing(let error):
                    phase = .ended
                    throw error
                }
                guard let chunk = try await chunks.next() else {
                    phase = .ended
                    if let last = splitter.unterminated { ready.append(last) }
                    continue
                }
                do {
                    try splitter.lines(in: chunk, into: &ready)
                } catch {
                    phase = .failing(chunks.fail(error))
                }
            }
            defer { next += 1 }
            return String(decoding: ready[next], as: UTF8.self)
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
