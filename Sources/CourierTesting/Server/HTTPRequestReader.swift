import Foundation

/// Reads HTTP/1.1 requests, one after another, from bytes it pulls as it needs them: the request
/// parser of the ``LoopbackServer``, kept apart from sockets so that it can be tested and fuzzed.
package struct HTTPRequestReader {
    /// What reading the next request gave.
    package enum Outcome {
        /// A whole request.
        case request(ServerRequest)
        /// The bytes are not a valid request; the server answers with this status and closes.
        case invalid(status: Int)
        /// The peer closed the connection, or gave up in the middle of a request.
        case closed
    }

    /// The largest request line and headers accepted.
    static let maximumHeadSize = 64 * 1024
    private static let headerTerminator = Data("\r\n\r\n".utf8)
    private static let lineEnd = Data("\r\n".utf8)

    /// Returns more bytes, or empty data once the peer has closed.
    let read: () -> Data
    /// Called once a request announces `Expect: 100-continue`, before its body is read.
    let continueRequested: () -> Void
    private var buffer = Data()

    package init(read: @escaping () -> Data, continueRequested: @escaping () -> Void = {}) {
        self.read = read
        self.continueRequested = continueRequested
    }

    /// Reads the next request.
    package mutating func next() -> Outcome {
        var headEnd = buffer.range(of: Self.headerTerminator)
        while headEnd == nil {
            guard buffer.count <= Self.maximumHeadSize else { return .invalid(status: 431) }
            guard fill() else { return .closed }
            headEnd = buffer.range(of: Self.headerTerminator)
        }
        guard let headEnd,
            let head = Head(String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self))
        else { return .invalid(status: 400) }
        buffer = Data(buffer[headEnd.upperBound...])
        if head.header("Expect")?.lowercased() == "100-continue" { continueRequested() }
        switch readBody(head) {
        case .success(let body):
            return .request(ServerRequest(method: head.method, target: head.target, headers: head.headers, body: body))
        case .failure(let outcome): return outcome.value
        }
    }

    /// `Result` needs an `Error` failure.
    private struct Stop: Error {
        let value: Outcome
    }

    private mutating func readBody(_ head: Head) -> Result<Data, Stop> {
        if head.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            return readChunked()
        }
        guard let length = Int(head.header("Content-Length") ?? "0"), length >= 0 else {
            return .failure(Stop(value: .invalid(status: 400)))
        }
        guard fill(to: length) else { return .failure(Stop(value: .closed)) }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return .success(body)
    }

    private mutating func readChunked() -> Result<Data, Stop> {
        var body = Data()
        while true {
            var end = buffer.range(of: Self.lineEnd)
            while end == nil {
                guard buffer.count <= Self.maximumHeadSize else { return .failure(Stop(value: .invalid(status: 400))) }
                guard fill() else { return .failure(Stop(value: .closed)) }
                end = buffer.range(of: Self.lineEnd)
            }
            let sizeLine = String(decoding: buffer[buffer.startIndex..<end!.lowerBound], as: UTF8.self)
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16), size >= 0,
                size <= Int.max - 2
            else { return .failure(Stop(value: .invalid(status: 400))) }
            buffer = Data(buffer[end!.upperBound...])
            guard fill(to: size + 2) else { return .failure(Stop(value: .closed)) }
            if size == 0 {
                buffer = Data(buffer.dropFirst(2))
                return .success(body)
            }
            body.append(buffer.prefix(size))
            buffer = Data(buffer.dropFirst(size + 2))
        }
    }

    /// Reads once more; `false` when the peer closed.
    private mutating func fill() -> Bool {
        let chunk = read()
        buffer.append(chunk)
        return !chunk.isEmpty
    }

    /// Reads until `count` bytes are buffered; `false` when the peer closed first.
    private mutating func fill(to count: Int) -> Bool {
        while buffer.count < count {
            guard fill() else { return false }
        }
        return true
    }

    /// The request line and headers of a request.
    private struct Head {
        let method: String
        let target: String
        let headers: [(name: String, value: String)]

        init?(_ text: String) {
            var lines = text.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst().split(separator: " ")
            guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
            method = String(requestLine[0])
            target = String(requestLine[1])
            var headers: [(name: String, value: String)] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers.append((String(line[..<colon]), value))
            }
            self.headers = headers
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }
}
