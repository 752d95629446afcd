import Courier
import Foundation

/// The server's side of one WebSocket connection of a ``WebSocketServer``, for the session
/// closure that plays it, on the connection's own thread (its calls block).
///
/// ```swift
/// let server = try WebSocketServer { peer in
///     while case .message(let message)? = peer.receive() { peer.send(message) }
/// }
/// ```
/// ``receive()`` answers pings, joins fragments and answers a close; ``receiveFrame()`` gives
/// frames as they come, for a test of the client's framing.
public final class WebSocketPeer {
    /// What ``receive()`` gives.
    public enum Event: Sendable, Hashable {
        /// A whole message.
        case message(WebSocketMessage)
        /// The client closed with this code (1005 when its frame had none) and reason; the
        /// close was answered.
        case closed(code: UInt16, reason: String)
    }

    /// The opening handshake the client sent.
    public let request: ServerRequest
    private let descriptor: Int32
    private let record: @Sendable (Event) -> Void
    private var buffer = Data()
    private var closeSent = false

    init(request: ServerRequest, descriptor: Int32, record: @escaping @Sendable (Event) -> Void) {
        self.request = request
        self.descriptor = descriptor
        self.record = record
    }

    /// The next frame, unmasked, or `nil` once the client closed the connection or sent more than
    /// 64 MiB in one frame. A frame the client did not mask is refused: the connection is cut.
    public func receiveFrame() -> WebSocketFrame? {
        while true {
            switch WebSocketFrame.decode(buffer, limit: 64 << 20) {
            case .frame(let frame, let masked, let length)?:
                buffer.removeFirst(length)
                guard masked else {
                    cut()
                    return nil
                }
                return frame
            case .tooLong?:
                cut()
                return nil
            case nil:
                let more = Socket.read(descriptor)
                guard !more.isEmpty else { return nil }
                buffer += more
            }
        }
    }

    /// The next message or the client's close (answered with the same code), or `nil` once the
    /// connection is gone. Pings are answered with pongs on the way.
    public func receive() -> Event? {
        var parts = Data()
        var opcode: UInt8?
        while let frame = receiveFrame() {
            switch frame.opcode {
            case WebSocketFrame.ping: sendFrame(WebSocketFrame(opcode: WebSocketFrame.pong, payload: frame.payload))
            case WebSocketFrame.pong: continue
            case WebSocketFrame.close:
                let (code, reason) = Self.closePayload(frame.payload)
                if !closeSent { close(code: code == 1005 ? 1000 : code) }
                let event = Event.closed(code: code, reason: reason)
                record(event)
                return event
            default:
                if frame.opcode != WebSocketFrame.continuation { opcode = frame.opcode }
                parts += frame.payload
                guard frame.fin else { continue }
                let message: WebSocketMessage =
                    opcode == WebSocketFrame.text ? .text(String(decoding: parts, as: UTF8.self)) : .binary(parts)
                let event = Event.message(message)
                record(event)
                return event
            }
        }
        return nil
    }

    /// Sends `message` in one unmasked frame.
    /// - Parameter message: The message.
    public func send(_ message: WebSocketMessage) {
        sendFrame(WebSocketFrame(opcode: message.opcode, payload: message.data))
    }

    /// Sends `frame` as it is: masked with `mask` (which a server must not do) or not.
    /// - Parameters:
    ///   - frame: The frame.
    ///   - mask: A masking key, for a test of a client that must refuse it; none by default.
    public func sendFrame(_ frame: WebSocketFrame, mask: [UInt8]? = nil) {
        _ = Socket.write(descriptor, frame.encoded(mask: mask))
    }

    /// Sends raw bytes.
    /// - Parameter data: The bytes.
    public func sendRaw(_ data: Data) {
        _ = Socket.write(descriptor, data)
    }

    /// Sends a close frame with `code` and `reason`; the client then closes the connection.
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The reason; empty by default.
    public func close(code: UInt16, reason: String = "") {
        closeSent = true
        let payload = Data([UInt8(code >> 8), UInt8(code & 0xFF)]) + Data(reason.utf8)
        sendFrame(WebSocketFrame(opcode: WebSocketFrame.close, payload: payload))
    }

    /// Cuts the connection without a close frame (a lost connection, as the client sees it).
    public func cut() {
        Socket.shutdown(descriptor)
    }

    /// The code (1005 when absent) and reason of a close frame's payload.
    static func closePayload(_ payload: Data) -> (UInt16, String) {
        guard payload.count >= 2 else { return (1005, "") }
        let bytes = [UInt8](payload)
        return (UInt16(bytes[0]) << 8 | UInt16(bytes[1]), String(decoding: bytes.dropFirst(2), as: UTF8.self))
    }
}
