import CourierTesting
import Foundation
import Synchronization

/// A local server that plays the notes service: signs in with `ann` / `secret`, issues access
/// tokens that expire after a few requests, refreshes them, answers `/status` with 503 the first
/// time, accepts attachments and serves a large file.
public final class NotesServer: Sendable {
    /// How many requests an access token is good for.
    public let tokenLifetime: Int
    /// The size of `/files/<name>`.
    public let fileSize: Int
    private let service: Service
    private let server: LoopbackServer

    /// Starts the server on a free loopback port.
    /// - Parameters:
    ///   - tokenLifetime: How many requests an access token is good for; 3 by default.
    ///   - fileSize: The size of the files it serves; 32 MiB by default.
    /// - Throws: A socket error when no port can be opened.
    public init(tokenLifetime: Int = 3, fileSize: Int = 32 << 20) throws {
        self.tokenLifetime = tokenLifetime
        self.fileSize = fileSize
        let service = Service(tokenLifetime: tokenLifetime, fileSize: fileSize)
        self.service = service
        server = try LoopbackServer { service.route($0) }
    }

    /// The server's address.
    public var baseURL: URL { server.baseURL }
    /// How many requests the server received.
    public var requestCount: Int { server.requests.count }
    /// How many times a token was refreshed.
    public var refreshCount: Int { service.state.withLock { $0.refreshes } }

    /// Stops the server.
    public func stop() { server.stop() }
}

/// The service's state and routes.
private final class Service: Sendable {
    struct State {
        var accessToken = ""
        var refreshToken = ""
        var issued = 0
        var usesLeft = 0
        var refreshes = 0
        var statusCalls = 0
        var created = 0
        /// The answers to the notes created, by `Idempotency-Key`: a repeated key gets the stored
        /// answer and creates nothing (draft-ietf-httpapi-idempotency-key-header).
        var createdByKey: [String: String] = [:]
    }

    let tokenLifetime: Int
    let file: Data
    let state = Mutex(State())

    init(tokenLifetime: Int, fileSize: Int) {
        self.tokenLifetime = tokenLifetime
        let block = Data((0..<251).map { UInt8($0) })
        var file = Data(capacity: fileSize)
        while file.count < fileSize { file.append(block.prefix(fileSize - file.count)) }
        self.file = file
    }

    func route(_ request: ServerRequest) -> ServerReply {
        state.withLock { state -> ServerReply in
            switch (request.method, request.path) {
            case ("POST", "/auth/login"):
                let body = try? JSONDecoder().decode([String: String].self, from: request.body)
                guard body?["username"] == "ann", body?["password"] == "secret" else {
                    return .json(#"{"error":"bad credentials"}"#, status: 401)
                }
                return Self.issue(&state, lifetime: tokenLifetime)
            case ("POST", "/auth/refresh"):
                let body = try? JSONDecoder().decode([String: String].self, from: request.body)
                guard body?["refresh_token"] == state.refreshToken else {
                    return .json(#"{"error":"invalid_grant"}"#, status: 401)
                }
                state.refreshes += 1
                return Self.issue(&state, lifetime: tokenLifetime)
            case ("GET", "/status"):
                state.statusCalls += 1
                return state.statusCalls == 1
                    ? .json(#"{"status":"warming up"}"#, status: 503) : .json(#"{"status":"ok"}"#)
            default:
                guard request.header("Authorization") == "Bearer \(state.accessToken)", state.usesLeft > 0 else {
                    return .json(#"{"error":"token expired"}"#, status: 401)
                }
                state.usesLeft -= 1
                return Self.authenticated(request, &state, file: file)
            }
        }
    }

    private static func authenticated(_ request: ServerRequest, _ state: inout State, file: Data) -> ServerReply {
        switch (request.method, request.path) {
        case ("GET", "/notes"):
            let query = Dictionary(
                uniqueKeysWithValues: (request.query ?? "").split(separator: "&").map {
                    let pair = $0.split(separator: "=", maxSplits: 1)
                    return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
                })
            let page = Int(query["page"] ?? "1") ?? 1
            return .json(
                #"{"page":\#(page),"notes":[{"id":\#(page * 10 + 1),"text":"Buy milk"},{"id":\#(page * 10 + 2),"text":"Call Ann"}]}"#
            )
        case ("POST", "/notes"):
            let key = request.header("Idempotency-Key")
            if let key, let answer = state.createdByKey[key] { return .json(answer, status: 201) }
            let text = (try? JSONDecoder().decode([String: String].self, from: request.body))?["text"] ?? ""
            state.created += 1
            let answer = #"{"id":\#(100 + state.created),"text":"\#(text)"}"#
            if let key { state.createdByKey[key] = answer }
            return .json(answer, status: 201)
        case ("POST", let path) where path.hasSuffix("/attachments"):
            return .json(#"{"bytes":\#(request.body.count)}"#, status: 201)
        case ("GET", let path) where path.hasPrefix("/files/"):
            return ServerReply(headers: ["Content-Type": "application/octet-stream"], body: file)
        case ("POST", "/assistant"):
            return assistantStream()
        default:
            return .json(#"{"error":"not found"}"#, status: 404)
        }
    }

    /// The assistant's answer: a token per event, 30 ms apart, then `data: [DONE]`, the
    /// connection left open (the client closes it at the terminator).
    private static func assistantStream() -> ServerReply {
        var steps: [ServerReply.RawStep] = [
            .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n".utf8))
        ]
        for token in ["Courier ", "streams ", "every ", "token ", "through ", "the ", "same ", "pipeline."] {
            steps += [.pause(0.03), .send(Data("data: \(token)\n\n".utf8))]
        }
        steps += [.send(Data("data: [DONE]\n\n".utf8)), .stall]
        return .raw(steps)
    }

    private static func issue(_ state: inout State, lifetime: Int) -> ServerReply {
        state.issued += 1
        state.accessToken = "access-\(state.issued)"
        state.refreshToken = "refresh-\(state.issued)"
        state.usesLeft = lifetime
        return .json(#"{"access_token":"\#(state.accessToken)","refresh_token":"\#(state.refreshToken)"}"#)
    }
}
