import Foundation

/// One client connection of the ``LoopbackServer``: reads HTTP/1.1 requests one after another
/// (keep-alive), hands each to the handler and writes the reply.
struct HTTPConnection {
    let descriptor: Int32
    let handle: @Sendable (ServerRequest) -> ServerReply

    private static let headerTerminator = Data("\r\n\r\n".utf8)
    private static let maximumHeadSize = 64 * 1024

    /// Serves requests until the client closes the connection or asks to.
    func serve() {
        var buffer = Data()
        while let request = readRequest(&buffer) {
            let reply = handle(request)
            if reply.closesWithoutReply { return }
            if let steps = reply.rawSteps { return play(steps) }
            guard Socket.write(descriptor, reply.serialized()), reply.cutsBodyAfter == nil else {
                if reply.stallsInsteadOfClosing { while !Socket.read(descriptor).isEmpty {} }
                return
            }
            if request.header("Connection")?.lowercased() == "close" { return }
        }
    }

    /// Plays raw steps; the caller closes the connection afterwards.
    private func play(_ steps: [ServerReply.RawStep]) {
        for step in steps {
            switch step {
            case .send(let data): guard Socket.write(descriptor, data) else { return }
            case .pause(let seconds): Thread.sleep(forTimeInterval: seconds)
            case .stall: while !Socket.read(descriptor).isEmpty {}
            }
        }
    }

    private func readRequest(_ buffer: inout Data) -> ServerRequest? {
        var headEnd = buffer.range(of: Self.headerTerminator)
        while headEnd == nil {
            guard buffer.count <= Self.maximumHeadSize else {
                Socket.write(descriptor, ServerReply(status: 431).serialized())
                return nil
            }
            let chunk = Socket.read(descriptor)
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
            headEnd = buffer.range(of: Self.headerTerminator)
        }
        guard let headEnd,
            let head = Head(String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self))
        else {
            Socket.write(descriptor, ServerReply(status: 400).serialized())
            return nil
        }
        buffer = Data(buffer[headEnd.upperBound...])
        if head.header("Expect")?.lowercased() == "100-continue" {
            Socket.write(descriptor, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        guard let body = readBody(head, &buffer) else { return nil }
        return ServerRequest(method: head.method, target: head.target, headers: head.headers, body: body)
    }

    private func readBody(_ head: Head, _ buffer: inout Data) -> Data? {
        if head.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            return readChunked(&buffer)
        }
        let length = Int(head.header("Content-Length") ?? "0") ?? 0
        guard fill(&buffer, to: length) else { return nil }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return body
    }

    private func readChunked(_ buffer: inout Data) -> Data? {
        var body = Data()
        let lineEnd = Data("\r\n".utf8)
        while true {
            while buffer.range(of: lineEnd) == nil {
                let chunk = Socket.read(descriptor)
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
            let end = buffer.range(of: lineEnd)!
            let sizeLine = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else { return nil }
            buffer = Data(buffer[end.upperBound...])
            guard fill(&buffer, to: size + 2) else { return nil }
            if size == 0 {
                buffer = Data(buffer.dropFirst(2))
                return body
            }
            body.append(buffer.prefix(size))
            buffer = Data(buffer.dropFirst(size + 2))
        }
    }

    private func fill(_ buffer: inout Data, to count: Int) -> Bool {
        while buffer.count < count {
            let chunk = Socket.read(descriptor)
            if chunk.isEmpty { return false }
            buffer.append(chunk)
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
