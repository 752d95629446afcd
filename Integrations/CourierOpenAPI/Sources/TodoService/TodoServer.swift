import CourierTesting
import Foundation

/// The sample's to-do service on loopback, for the sample program and the tests: bearer tokens that a refresh replaces,
/// a refresh endpoint that can be made to fail, and counters of what it saw.
package final class TodoServer: Sendable {
    /// What the service holds.
    private struct State {
        var generation = 1
        var refreshes = 0
        var refreshFails = false
        var todos = [(id: 1, title: "Buy milk", done: false), (id: 2, title: "Call Ann", done: true)]
        var attachments: [Int: Int] = [:]
    }

    /// The access token the service accepts now (refreshes replace it).
    package static func accessToken(_ generation: Int) -> String { "access-secret-\(generation)" }
    /// The refresh token that goes with an access token.
    package static func refreshToken(_ generation: Int) -> String { "refresh-secret-\(generation)" }

    private let state: Guarded<State>
    private let server: LoopbackServer

    /// Starts the service.
    package init() throws {
        let state = Guarded(State())
        self.state = state
        server = try LoopbackServer { request in Self.reply(to: request, state: state) }
    }

    deinit { server.stop() }

    /// The server URL of the generated client: `http://127.0.0.1:<port>/v1`.
    package var serverURL: URL { server.baseURL.appendingPathComponent("v1") }
    /// How many refreshes the service answered with a new token.
    package var refreshes: Int { state.read { $0.refreshes } }
    /// The attachment sizes stored, by to-do ID.
    package var attachments: [Int: Int] { state.read { $0.attachments } }
    /// Every request the service received.
    package var requests: [ServerRequest] { server.requests }

    /// Makes every refresh fail with 401 (the refresh token was revoked).
    package func revokeRefreshToken() { state.write { $0.refreshFails = true } }

    private static func reply(to request: ServerRequest, state: Guarded<State>) -> ServerReply {
        let generation = state.read { $0.generation }
        if request.path == "/v1/auth/refresh" { return refresh(request, state: state) }
        guard request.header("Authorization") == "Bearer \(accessToken(generation))" else {
            return .json(#"{"title":"Unauthorized","detail":"The access token expired."}"#, status: 401)
        }
        switch (request.method, request.path) {
        case ("GET", "/v1/todos"):
            let limit = request.query.flatMap { $0.split(separator: "=").last.flatMap { Int($0) } } ?? 100
            let todos = state.read { $0.todos.prefix(limit) }
            let items = todos.map { #"{"id":\#($0.id),"title":"\#($0.title)","done":\#($0.done)}"# }
            return .json("[" + items.joined(separator: ",") + "]")
        case ("POST", "/v1/todos"):
            let title = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["title"] as? String
            guard let title else { return .json(#"{"title":"Bad request"}"#, status: 400) }
            let id = state.write { state in
                let id = (state.todos.map(\.id).max() ?? 0) + 1
                state.todos.append((id: id, title: title, done: false))
                return id
            }
            return .json(#"{"id":\#(id),"title":"\#(title)","done":false}"#, status: 201)
        case ("GET", "/v1/todos/export"):
            let lines = (1...1000).map { #"{"id":\#($0),"title":"Task \#($0)","done":false}"# + "\n" }
            return ServerReply(
                status: 200, headers: ["Content-Type": "application/octet-stream"], body: Data(lines.joined().utf8))
        case ("PUT", let path) where path.hasPrefix("/v1/todos/") && path.hasSuffix("/attachment"):
            let id = Int(path.dropFirst("/v1/todos/".count).dropLast("/attachment".count)) ?? 0
            state.write { $0.attachments[id] = request.body.count }
            return ServerReply(status: 204)
        case ("GET", let path) where path.hasPrefix("/v1/todos/"):
            let id = Int(path.dropFirst("/v1/todos/".count)) ?? 0
            guard let todo = state.read({ $0.todos.first { $0.id == id } }) else {
                return .json(#"{"title":"Not found","detail":"No to-do \#(id)."}"#, status: 404)
            }
            return .json(#"{"id":\#(todo.id),"title":"\#(todo.title)","done":\#(todo.done)}"#)
        default:
            return ServerReply(status: 405)
        }
    }

    private static func refresh(_ request: ServerRequest, state: Guarded<State>) -> ServerReply {
        let body = String(decoding: request.body, as: UTF8.self)
        let next: Int? = state.write { state in
            guard !state.refreshFails, body.contains(refreshToken(state.generation)) else { return nil }
            state.generation += 1
            state.refreshes += 1
            return state.generation
        }
        guard let next else { return .json(#"{"title":"Unauthorized"}"#, status: 401) }
        return .json(
            #"{"accessToken":"\#(accessToken(next))","refreshToken":"\#(refreshToken(next))","expiresIn":3600}"#)
    }
}

/// A value behind a lock, for state the server's connection threads share.
///
/// `@unchecked Sendable`: every access to `value` holds `lock`.
package final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func read<Result>(_ body: (Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(value)
    }

    @discardableResult
    package func write<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
