import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The response cases: status codes, heads and bodies.
extension ConformanceRun {
    func performResponseCase() async throws {
        switch testCase {
        case .statusCodes: try await statusCodes()
        case .informationalSkipped:
            try await rawBody(
                "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", expecting: "ok",
                status: 200)
        case .noContent: try await noContent()
        case .headWithContentLength: try await headWithContentLength()
        case .headerNamesCaseInsensitive: try await headerNames()
        case .repeatedResponseHeader: try await repeatedResponseHeader()
        case .repeatedRequestHeader: try await repeatedRequestHeader()
        case .smallAndEmptyBodies: try await smallAndEmptyBodies()
        case .largeBody: try await largeBody()
        case .chunkedBody: try await chunkedBodies()
        case .closeDelimitedBody:
            try await rawBody("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n1234", expecting: "1234", status: 200)
        case .gzipBody: try await gzipBody()
        case .concurrentRequests: try await concurrentRequests()
        default: throw fail("not a response case")
        }
    }

    private func statusCodes() async throws {
        let server = try LoopbackServer { request in
            ServerReply(status: Int(request.path.dropFirst()) ?? 400, body: Data(request.method.utf8))
        }
        for status in [200, 201, 202, 299, 404, 418, 500, 503, 599] {
            let response = try await send(TransportRequest(urlRequest: Self.request(server, "\(status)")))
            try expect(response.statusCode == status, "GET /\(status) came back as \(response.statusCode)")
        }
        for method in ["GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS"] {
            let response = try await send(TransportRequest(urlRequest: Self.request(server, "200", method: method)))
            try expect(
                String(decoding: response.data, as: UTF8.self) == method,
                "\(method) reached the server as \(String(decoding: response.data, as: UTF8.self))")
        }
    }

    /// Sends a GET to a server that answers `raw` and checks the status and the body.
    private func rawBody(_ raw: String, expecting body: String, status: Int) async throws {
        let server = try LoopbackServer { _ in .raw(raw) }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "raw")))
        try expect(response.statusCode == status, "status \(response.statusCode), expected \(status)")
        try expect(
            response.data == Data(body.utf8), "body \(String(decoding: response.data, as: UTF8.self).debugDescription)")
    }

    private func noContent() async throws {
        for status in [204, 304] {
            let server = try LoopbackServer { _ in
                .raw("HTTP/1.1 \(status) \(status == 204 ? "No Content" : "Not Modified")\r\nContent-Length: 0\r\n\r\n")
            }
            let response = try await send(TransportRequest(urlRequest: Self.request(server, "empty")))
            try expect(response.statusCode == status, "status \(response.statusCode), expected \(status)")
            try expect(response.data.isEmpty, "a \(status) came with \(response.data.count) body bytes")
        }
    }

    private func headWithContentLength() async throws {
        let server = try LoopbackServer { _ in .raw("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n") }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "head", method: "HEAD")))
        try expect(response.statusCode == 200 && response.data.isEmpty, "HEAD gave \(response.data.count) body bytes")
    }

    private func headerNames() async throws {
        let server = try LoopbackServer { request in
            ServerReply(headers: ["x-MiXeD-case": "1"], body: Data((request.header("x-custom-header") ?? "none").utf8))
        }
        let response = try await send(
            TransportRequest(urlRequest: Self.request(server, "h", headers: ["X-Custom-Header": "sent"])))
        try expect(
            String(decoding: response.data, as: UTF8.self) == "sent", "the request header did not arrive as sent")
        try expect(
            response.response?.value(forHTTPHeaderField: "X-Mixed-Case") == "1",
            "the response header is not found under another case")
    }

    private func repeatedResponseHeader() async throws {
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nX-Multi: a\r\nX-Multi: b\r\nContent-Length: 0\r\n\r\n")
        }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "multi")))
        let value = response.response?.value(forHTTPHeaderField: "X-Multi") ?? ""
        let values = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        try expect(values == ["a", "b"], "X-Multi came back as \(value.debugDescription), expected a and b")
    }

    private func repeatedRequestHeader() async throws {
        let server = try LoopbackServer { request in
            .text(request.headers.filter { $0.name.lowercased() == "x-multi" }.map(\.value).joined(separator: ","))
        }
        var request = Self.request(server, "multi")
        request.addValue("a", forHTTPHeaderField: "X-Multi")
        request.addValue("b", forHTTPHeaderField: "X-Multi")
        let response = try await send(TransportRequest(urlRequest: request))
        let received = String(decoding: response.data, as: UTF8.self)
        let values = received.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        try expect(values == ["a", "b"], "the server received X-Multi as \(received.debugDescription)")
    }

    private func smallAndEmptyBodies() async throws {
        let server = try LoopbackServer { ServerReply(body: $0.body) }
        let empty = try await send(TransportRequest(urlRequest: Self.request(server, "echo", method: "POST")))
        try expect(empty.data.isEmpty, "an empty body came back with \(empty.data.count) bytes")
        let hello = Data("Hello World".utf8)
        let small = try await send(
            TransportRequest(urlRequest: Self.request(server, "echo", method: "POST", body: hello)))
        try expect(small.data == hello, "Hello World came back as \(small.data.count) bytes")
        let mebibyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let large = try await send(
            TransportRequest(urlRequest: Self.request(server, "echo", method: "POST", body: mebibyte)))
        try expect(large.data == mebibyte, "1 MiB came back as \(large.data.count) different bytes")
    }

    private func largeBody() async throws {
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
        let blocks = max(1, suite.largeBodySize >> 20)
        let server = try LoopbackServer { _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(blocks * block.count)\r\n\r\n"
            return .raw([.send(Data(head.utf8)), .sendRepeated(block, count: blocks)])
        }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "large")))
        var checker = RepeatedBlockChecker(block: block)
        try expect(
            checker.check(response.data) && response.data.count == blocks * block.count,
            "\(response.data.count) bytes arrived of \(blocks * block.count), or different ones")
    }

    private func concurrentRequests() async throws {
        let server = try LoopbackServer { request in ServerReply(body: Data(request.path.utf8)) }
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<100 {
                group.addTask {
                    let response = try await send(TransportRequest(urlRequest: Self.request(server, "\(index)")))
                    return (index, String(decoding: response.data, as: UTF8.self))
                }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        let wrong = (0..<100).filter { answers[$0] != "/\($0)" }
        try expect(
            wrong.isEmpty,
            "\(wrong.count) of 100 concurrent requests got another answer or none, first /\(wrong.first ?? 0)")
    }

    private func chunkedBodies() async throws {
        try await rawBody(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n1234\r\n3\r\n567\r\n0\r\n\r\n",
            expecting: "1234567",
            status: 200)
        try await rawBody("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", expecting: "", status: 200)
    }

    private func gzipBody() async throws {
        // "TEST\n", gzip-compressed.
        let compressed = Data([
            31, 139, 8, 0, 0, 0, 0, 0, 2, 255, 11, 113, 13, 14, 225, 2, 0, 190, 215, 131, 247, 5, 0, 0, 0,
        ])
        let server = try LoopbackServer { _ in ServerReply(headers: ["Content-Encoding": "gzip"], body: compressed) }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "gzip")))
        try expect(response.data == Data("TEST\n".utf8), "the gzip body came back as \(response.data.count) bytes")
    }
}
