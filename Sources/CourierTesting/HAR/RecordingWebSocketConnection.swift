import Courier
import Foundation

/// An engine's socket connection whose messages a ``HARRecorder`` keeps, redacted, for the
/// socket's entry (`_webSocketMessages`); the entry is written when the socket ends.
final class RecordingWebSocketConnection: WebSocketConnection {
    private let base: any WebSocketConnection
    private let redaction: Redaction
    private let entry: SocketEntry

    init(_ base: any WebSocketConnection, redaction: Redaction, entry: SocketEntry) {
        self.base = base
        self.redaction = redaction
        self.entry = entry
    }

    func send(_ message: WebSocketMessage) async throws {
        try await base.send(message)
        entry.record(HARMessages.message(message, type: "send", redaction: redaction))
    }

    func receive() async throws -> WebSocketEvent {
        do {
            let event = try await base.receive()
            switch event {
            case .message(let message):
                entry.record(HARMessages.message(message, type: "receive", redaction: redaction))
            case .closed: entry.finish()
            }
            return event
        } catch {
            entry.finish()
            throw error
        }
    }

    func ping() async throws {
        try await base.ping()
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        await base.close(code: code, reason: reason)
        entry.finish()
    }

    func abort() async {
        await base.abort()
        entry.finish()
    }
}

/// A socket's entry, written to the archive once both its handshake's entry is known and the
/// socket ended (whichever comes second), with at most `limit` bytes of messages.
final class SocketEntry: Sendable {
    private struct State {
        var entry: HAR.Entry?
        var messages: [HAR.WebSocketMessage] = []
        var bytes = 0
        var truncated = false
        var ended = false
        var written = false
    }

    private let archive: HARArchive
    private let order: Int
    private let limit: Int
    private let state = Locked(State())

    init(archive: HARArchive, order: Int, limit: Int) {
        self.archive = archive
        self.order = order
        self.limit = limit
    }

    /// Keeps `message`, unless the messages kept reached the limit (the entry is then marked
    /// truncated).
    func record(_ message: HAR.WebSocketMessage) {
        state.withLock { state in
            guard !state.written else { return }
            guard state.bytes + message.data.utf8.count <= limit else {
                state.truncated = true
                return
            }
            state.bytes += message.data.utf8.count
            state.messages.append(message)
        }
    }

    /// The handshake's entry.
    func set(_ entry: HAR.Entry) {
        writeIfDone { $0.entry = entry }
    }

    /// The socket ended.
    func finish() {
        writeIfDone { $0.ended = true }
    }

    private func writeIfDone(_ change: (inout State) -> Void) {
        let done = state.withLock { state -> HAR.Entry? in
            change(&state)
            guard !state.written, state.ended, var entry = state.entry else { return nil }
            state.written = true
            entry.webSocketMessages = state.messages
            if state.truncated { entry.courier?.truncated = true }
            return entry
        }
        if let done { archive.add(done, order: order) }
    }
}

/// The conversions between a socket's messages and a HAR file's.
enum HARMessages {
    /// `message` as a HAR file keeps it: a text redacted as a body is, a binary one in Base64.
    static func message(_ message: WebSocketMessage, type: String, redaction: Redaction) -> HAR.WebSocketMessage {
        let data: String
        switch message {
        case .text(let text): data = String(decoding: redaction.body(Data(text.utf8), contentType: nil), as: UTF8.self)
        // Binary data is redacted as a body is (JSON or a form inside it), then kept in Base64.
        case .binary(let bytes): data = redaction.body(bytes, contentType: nil).base64EncodedString()
        }
        return HAR.WebSocketMessage(
            type: type, time: Date().timeIntervalSince1970, opcode: Int(message.opcode), data: data)
    }

    /// The message a HAR file keeps, or `nil` for a control frame's or an unreadable one.
    static func message(_ recorded: HAR.WebSocketMessage) -> WebSocketMessage? {
        switch recorded.opcode {
        case 1: return .text(recorded.data)
        case 2: return Data(base64Encoded: recorded.data).map { .binary($0) }
        default: return nil
        }
    }

    /// A peer that plays `recorded` back: the messages received before the first one sent at
    /// once, then, for each message the client sends, those received after the next one sent.
    static func peer(_ recorded: [HAR.WebSocketMessage]) -> WebSocketScript {
        var turns: [[WebSocketScript.Action]] = [[]]
        for message in recorded {
            if message.type == "send" {
                turns.append([])
            } else if let received = Self.message(message) {
                turns[turns.count - 1].append(.send(received))
            }
        }
        let remaining = Locked(Array(turns.dropFirst()))
        return WebSocketScript(onOpen: turns[0]) { _ in
            remaining.withLock { $0.isEmpty ? [] : $0.removeFirst() }
        }
    }
}
