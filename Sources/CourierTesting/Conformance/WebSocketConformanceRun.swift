import Courier
import Foundation

/// One run of a ``WebSocketConformance`` case.
struct WebSocketConformanceRun {
    let testCase: WebSocketConformance.Case
    let transport: any Transport

    func expect(_ condition: Bool, _ difference: @autoclosure () -> String) throws(WebSocketConformanceFailure) {
        if !condition { throw WebSocketConformanceFailure(testCase: testCase, difference: difference()) }
    }

    func fail(_ difference: String) -> WebSocketConformanceFailure {
        WebSocketConformanceFailure(testCase: testCase, difference: difference)
    }

    /// Opens a socket on `server` through a provider on the engine.
    func open(_ server: WebSocketServer, _ options: WebSocketOptions = WebSocketOptions()) async throws -> WebSocket {
        do {
            return try await Provider<ConformanceSocket>(transport: transport).webSocket(
                ConformanceSocket(baseURL: server.baseURL), options: options)
        } catch {
            throw fail("the socket did not open: \(error)")
        }
    }

    /// The error the socket's next message throws, failing the case when it gives a message or ends.
    func nextError(_ socket: WebSocket, within seconds: TimeInterval = 10) async throws -> any Error {
        let outcome = await Self.within(seconds) { () async -> Result<WebSocketMessage?, any Error> in
            do {
                var messages = socket.messages.makeAsyncIterator()
                return .success(try await messages.next())
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case nil: throw fail("no answer within \(seconds) s")
        case .success(let message)?: throw fail("expected an error, got \(message.map { "\($0)" } ?? "the end")")
        case .failure(let error)?: return error
        }
    }

    /// Waits until `condition` holds (polled every 10 ms), at most `seconds`.
    static func eventually(_ seconds: TimeInterval = 10, _ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }

    /// `operation`'s result, or `nil` when it takes longer than `seconds` (it is then cancelled).
    static func within<Value: Sendable>(
        _ seconds: TimeInterval, _ operation: @escaping @Sendable () async -> Value
    ) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask { await operation() }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The code of the client's close the server received, if any.
    static func closeCode(_ server: WebSocketServer) -> UInt16? {
        for event in server.received.reversed() {
            if case .closed(let code, _) = event { return code }
        }
        return nil
    }
}
