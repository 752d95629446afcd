import Foundation

/// One WebSocket message, whole: text (valid UTF-8) or binary.
///
/// ```swift
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     if case .text(let text) = message { print(text) }
/// }
/// ```
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (opcode 1).
    case text(String)
    /// A binary message (opcode 2).
    case binary(Data)

    /// The message's payload size in bytes (a text's UTF-8).
    public var size: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }

    /// The message's payload as bytes: a text's UTF-8, or the binary data.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }

    /// The message's opcode on the wire: 1 for text, 2 for binary (RFC 6455 §5.2).
    public var opcode: UInt8 {
        switch self {
        case .text: 1
        case .binary: 2
        }
    }
}
