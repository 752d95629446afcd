/// An opened socket's connection, its handshake's response and request identifier.
struct WebSocketOpening: Sendable {
    let connection: any WebSocketConnection
    let response: Response
    let requestID: RequestID
}

/// What a socket's lock guards.
// @unchecked Sendable: only ever read and written inside the socket's lock; the error of an
// ending is handed out only to be thrown.
struct SocketState: @unchecked Sendable {
    /// The connection in use (the latest reconnection's).
    var connection: any WebSocketConnection
    /// The handshake's response of that connection.
    var response: Response
    /// The handshake's request identifier of that connection.
    var requestID: RequestID
    /// How the socket ended, once it did.
    var ended: Ending?
    /// Whether a reconnection is running: sends wait for it.
    var reconnecting = false
    /// Sends and pings waiting for the reconnection, by id (the order they came in). Each is
    /// resumed with `true` when its turn to send came (``releasing``), `false` when the socket
    /// ended or the caller was cancelled.
    var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    /// Whether the waiting sends are being let go one at a time, in order, after a
    /// reconnection: new sends wait behind them.
    var releasing = false
    var nextWaiter: UInt64 = 0
    /// The reconnection's wait, which an end cuts short.
    var backOff: CheckedContinuation<Void, Never>?
    /// Reconnections since a message last arrived: a server that accepts and drops at once
    /// spends them as failures do.
    var reconnectionsInRow = 0
    /// Sends waiting for the engine or the reconnection.
    var pendingSends = 0
    /// Whether the heartbeat found the current connection lost (and closed it).
    var heartbeatMissed = false

    init(_ opening: WebSocketOpening) {
        connection = opening.connection
        response = opening.response
        requestID = opening.requestID
    }
}

/// How a socket ended.
enum Ending {
    case closed(WebSocketCloseCode, String, byPeer: Bool)
    case failed(any Error)

    /// The error a send or a ping gets once the socket ended.
    var error: any Error {
        switch self {
        case .closed(let code, let reason, _): WebSocketError.closed(code, reason: reason)
        case .failed(let error): error
        }
    }
}
