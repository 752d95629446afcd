import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server faults, timeouts and cancellation.
extension ConformanceRun {
    func performFailureCase() async throws {
        switch testCase {
        case .connectionRefused: try await connectionRefused()
        case .closedBeforeStatus: try await fault(.raw("HTTP/1."), is: .connectionLost)
        case .incompleteBody:
            try await fault(.raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"), is: .connectionLost)
        case .notHTTP: try await fault(.raw("SSH-2.0-OpenSSH_9.2\r\n"), is: .badServerResponse)
        case .oversizeHeaders:
            let headers = (0..<400).map { "X-H\($0): \(String(repeating: "a", count: 1000))\r\n" }.joined()
            try await fault(.raw("HTTP/1.1 200 OK\r\n\(headers)Content-Length: 2\r\n\r\nok"), is: .badServerResponse)
        case .stallTimesOut: try await stallTimesOut()
        case .staleConnectionResend: try await staleConnectionResend()
        case .cancelBeforeHead: try await cancellation(partialBody: false)
        case .cancelDuringBody: try await cancellation(partialBody: true)
        default: throw fail("not a failure case")
        }
    }

    private func fault(_ reply: ServerReply, is kind: TransportFailure.Kind) async throws {
        let server = try LoopbackServer { _ in reply }
        let error = try await failure(of: TransportRequest(urlRequest: Self.request(server, "fault")))
        try expect(Self.kind(of: error) == kind, "expected \(kind), got \(Self.kind(of: error)): \(error)")
    }

    private func connectionRefused() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let request = Self.request(server, "refused")
        server.stop()
        let error = try await failure(of: TransportRequest(urlRequest: request))
        try expect(
            Self.kind(of: error) == .cannotConnect, "expected cannotConnect, got \(Self.kind(of: error)): \(error)")
    }

    private func stallTimesOut() async throws {
        let server = try LoopbackServer { _ in
            .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)), .stall])
        }
        let start = DispatchTime.now()
        let stalled = TransportRequest(urlRequest: Self.request(server, "stall"), timeout: 0.5)
        // A transport that declares `timeouts` but does not enforce them would hang here: the
        // case gives it 5 s more, then fails.
        let error: any Error
        do {
            error = try await TimeLimit.run(seconds: 5.5, discard: { _ in }, { try await failure(of: stalled) })
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw fail(
                "the transport declares TransportCapabilities.timeouts, yet its 0.5 s timeout had not fired after 5.5 s"
            )
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        try expect(Self.kind(of: error) == .timedOut, "expected timedOut, got \(error)")
        try expect(elapsed >= 0.5, "the 0.5 s timeout fired after \(elapsed) s")
    }

    /// Sends a `POST`, then a `PUT`, each on a kept-alive connection the server closes once it has
    /// read the request, and checks that only the `PUT` may be sent again, once, visibly.
    private func staleConnectionResend() async throws {
        for method in ["POST", "PUT"] {
            let closed = Locked(false)
            let server = try LoopbackServer { request in
                guard request.path == "/p" else { return ServerReply() }
                let first = closed.withLock { closed in
                    defer { closed = true }
                    return !closed
                }
                return first ? .closeConnection : ServerReply(body: request.body)
            }
            defer { server.stop() }
            _ = try await send(TransportRequest(urlRequest: Self.request(server, "warm")))
            let body = Data(#"{"amount":100}"#.utf8)
            var request = TransportRequest(urlRequest: Self.request(server, "p", method: method, body: body))
            request.timeout = 20
            let received: () -> Int = { server.requests.filter { $0.path == "/p" }.count }
            do {
                let response = try await transport.sendWithinTimeout(request)
                try expect(
                    method == "PUT", "the POST was sent again by the transport and answered \(response.statusCode)")
                try expect(
                    received() == 2 && response.resends == 1,
                    "the server received the PUT \(received()) times; the response reports \(response.resends) resends")
            } catch let failure as ConformanceFailure {
                throw failure
            } catch {
                try expect(Self.kind(of: error) == .connectionLost, "\(method): expected connectionLost, got \(error)")
                try expect(received() == 1, "the server received the \(method) \(received()) times")
            }
        }
    }

    /// Cancels `send` once the server holds the request (before its head, or after half its
    /// body) and checks that `send` ends promptly with a cancellation.
    private func cancellation(partialBody: Bool) async throws {
        let arrived = CallRecorder()
        let release = DispatchSemaphore(value: 0)
        let body = Data(repeating: 1, count: 100_000)
        let server = try LoopbackServer { _ in
            arrived.record(.send)
            if partialBody {
                let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n"
                return .raw([.send(Data(head.utf8) + body.prefix(50_000)), .stall])
            }
            _ = release.wait(timeout: .now() + 10)
            return ServerReply(body: body)
        }
        defer { release.signal() }
        let transport = self.transport
        let bodyArrived = CallRecorder()
        let request = TransportRequest(
            urlRequest: Self.request(server, "hold"),
            progress: { if $0.direction == .download && $0.completedBytes > 0 { bodyArrived.record(.send) } })
        let call = Task { try await transport.send(request) }
        guard await arrived.wait(for: .send) else { throw fail("the request never reached the server") }
        if partialBody, !(await bodyArrived.wait(for: .send)) { throw fail("no progress reported the first half") }
        let start = DispatchTime.now()
        call.cancel()
        let result = await call.result
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        guard case .failure(let error) = result else { throw fail("a cancelled request succeeded") }
        try expect(Self.isCancellation(error), "a cancelled request ended with \(error)")
        try expect(
            elapsed <= suite.cancellationBound,
            "the cancellation took \(Int(elapsed * 1000)) ms (bound \(Int(suite.cancellationBound * 1000)) ms)")
    }
}
