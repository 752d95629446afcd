import Courier
import NIOCore

/// What a socket's handler read, for its reader: an event, or a compressed message still to be
/// inflated on the reader's side (``SocketInflater``).
enum SocketEvent: Sendable {
    /// A message (inflated or never compressed), the peer's close, or the failure that ended
    /// the socket.
    case ready(Result<WebSocketEvent, any Error>)
    /// A whole compressed message's payload (its first frame had RSV1), and whether it is text.
    case compressed(ByteBuffer, isText: Bool)
}
