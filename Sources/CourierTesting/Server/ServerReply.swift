import Foundation

/// What the ``LoopbackServer`` answers to a request.
public struct ServerReply: Sendable {
    /// The status code.
    public var status: Int
    /// Headers to send; `Content-Length` is always added.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// Whether the server closes the connection instead of answering (a transport failure for
    /// the client).
    public var closesWithoutReply = false
    /// When set, the server sends the headers (with the full `Content-Length`) and only this many
    /// bytes of the body, then closes the connection: a transfer cut mid-body.
    public var cutsBodyAfter: Int?
    /// When set with ``cutsBodyAfter``, the server keeps the connection open after the partial
    /// body, sending nothing more, until the client closes it: a stalled transfer.
    public var stallsInsteadOfClosing = false
    /// When set, the server plays these steps instead of sending the reply: any bytes, pauses,
    /// then closes the connection (see the two `raw(_:)` factories).
    public var rawSteps: [RawStep]?
    /// After ``rawSteps``, the connection's socket is handed to this (a ``WebSocketServer``'s
    /// session), on the connection's thread; the connection closes when it returns.
    var takeover: (@Sendable (Int32) -> Void)?

    /// One step of a raw reply.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
    public enum RawStep: Sendable {
        /// Sends these bytes as they are.
        case send(Data)
        /// Sends these bytes `count` times in a row: a large body that the server never holds
        /// whole.
        case sendRepeated(Data, count: Int)
        /// Waits this many seconds.
        case pause(TimeInterval)
        /// Keeps the connection open, sending nothing, until the client closes it.
        case stall
        /// Runs this on the connection's thread, in order: to hold the reply until a test says so,
        /// or to tell a test that the steps before it are done (after ``stall``, that the client
        /// closed the connection).
        case run(@Sendable () -> Void)
    }

    /// A reply made of raw steps (bytes and pauses), after which the connection is closed: for
    /// malformed, truncated or trickling answers.
    /// ```swift
    /// .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Len".utf8))])   // closes mid-headers
    /// ```
    /// - Parameter steps: The steps.
    /// - Returns: The reply.
    public static func raw(_ steps: [RawStep]) -> ServerReply {
        var reply = ServerReply()
        reply.rawSteps = steps
        return reply
    }

    /// A raw reply of `text` (as UTF-8), after which the connection is closed.
    /// - Parameter text: The bytes to send, as text.
    /// - Returns: The reply.
    public static func raw(_ text: String) -> ServerReply {
        raw([.send(Data(text.utf8))])
    }

    /// A reply that closes the connection without sending anything: the client sees a
    /// transport error.
    public static var closeConnection: ServerReply {
        var reply = ServerReply()
        reply.closesWithoutReply = true
        return reply
    }

    /// Creates a reply.
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - headers: Headers to send.
    ///   - body: The body; empty by default.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A reply with a JSON body.
    /// - Parameters:
    ///   - json: The JSON text.
    ///   - status: The status code; 200 by default.
    /// - Returns: The reply.
    public static func json(_ json: String, status: Int = 200) -> ServerReply {
        ServerReply(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    /// A reply with a plain-text body.
    /// - Parameters:
    ///   - text: The text.
    ///   - status: The status code; 200 by default.
    /// - Returns: The reply.
    public static func text(_ text: String, status: Int = 200) -> ServerReply {
        ServerReply(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// A reply whose body stops after `bytes` bytes, the connection then closed.
    /// - Parameters:
    ///   - body: The whole body, whose length the headers announce.
    ///   - bytes: How many bytes are sent before the connection closes.
    /// - Returns: The reply.
    public static func cut(_ body: Data, after bytes: Int) -> ServerReply {
        var reply = ServerReply(body: body)
        reply.cutsBodyAfter = bytes
        return reply
    }

    /// A reply whose body stalls after `bytes` bytes, the connection held open until the client
    /// gives up.
    /// - Parameters:
    ///   - body: The whole body, whose length the headers announce.
    ///   - bytes: How many bytes are sent before the stall.
    /// - Returns: The reply.
    public static func stall(_ body: Data, after bytes: Int) -> ServerReply {
        var reply = cut(body, after: bytes)
        reply.stallsInsteadOfClosing = true
        return reply
    }

    /// The bytes of the reply on the wire.
    func serialized() -> Data {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key })
        where name.caseInsensitiveCompare("Content-Length") != .orderedSame {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + (cutsBodyAfter.map { body.prefix($0) } ?? body)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
