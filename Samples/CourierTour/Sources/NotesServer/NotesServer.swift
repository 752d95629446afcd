import CourierTesting
import Foundation
import Synchronization

/// A local server that plays the notes service: lists pages of notes, creates notes, and answers
/// `/status` with 503 the first time and 200 after that.
public final class NotesServer: Sendable {
    private let server: LoopbackServer

    /// Starts the server on a free loopback port.
    /// - Throws: A socket error when no port can be opened.
    public init() throws {
        let statusCalls = Counter()
        let created = Counter()
        server = try LoopbackServer { request in
            switch (request.method, request.path) {
            case ("GET", "/notes"):
                let page = Int(request.query?.split(separator: "=").last ?? "1") ?? 1
                return .json(
                    #"[{"id":\#(page * 10 + 1),"text":"Buy milk"},{"id":\#(page * 10 + 2),"text":"Call Ann"}]"#)
            case ("POST", "/notes"):
                let text = (try? JSONDecoder().decode([String: String].self, from: request.body))?["text"] ?? ""
                let id = 100 + created.next()
                return .json(#"{"id":\#(id),"text":"\#(text)"}"#, status: 201)
            case ("GET", "/status"):
                return statusCalls.next() == 1
                    ? .json(#"{"status":"warming up"}"#, status: 503) : .json(#"{"status":"ok"}"#)
            default:
                return .json(#"{"error":"not found"}"#, status: 404)
            }
        }
    }

    /// The server's address.
    public var baseURL: URL { server.baseURL }

    /// How many requests the server received.
    public var requestCount: Int { server.requests.count }

    /// Stops the server.
    public func stop() { server.stop() }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// Increments the counter and returns the new value.
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
