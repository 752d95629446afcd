import Foundation

/// One WebSocket frame (RFC 6455 §5.2), as ``WebSocketPeer`` reads and writes them: for tests that
/// send what a well-behaved server would not (fragments, control frames between them, a masked
/// frame, reserved opcodes, an oversized length).
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last frame of its message.
    public var fin: Bool
    /// The opcode: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    public var opcode: UInt8
    /// The payload, unmasked.
    public var payload: Data

    /// Creates a frame.
    /// - Parameters:
    ///   - opcode: The opcode.
    ///   - payload: The payload.
    ///   - fin: Whether it ends its message; `true` by default.
    public init(opcode: UInt8, payload: Data, fin: Bool = true) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// Continuation.
    public static let continuation: UInt8 = 0
    /// Text.
    public static let text: UInt8 = 1
    /// Binary.
    public static let binary: UInt8 = 2
    /// Close.
    public static let close: UInt8 = 8
    /// Ping.
    public static let ping: UInt8 = 9
    /// Pong.
    public static let pong: UInt8 = 10

    /// The frame on the wire; `mask` masks it (what a client does, and a server must not).
    /// - Parameter mask: The masking key, or `nil` for an unmasked frame.
    /// - Returns: The bytes.
    public func encoded(mask: [UInt8]? = nil) -> Data {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (opcode & 0x0F)]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case ..<126: bytes.append(maskBit | UInt8(payload.count))
        case ..<65_536: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift))
            }
        }
        guard let mask, mask.count == 4 else { return Data(bytes) + payload }
        bytes += mask
        var masked = [UInt8](payload)
        for index in masked.indices { masked[index] ^= mask[index % 4] }
        return Data(bytes + masked)
    }

    /// The frame at the start of `buffer` and its length in bytes, or `nil` when `buffer` does
    /// not hold a whole one yet; a length beyond `limit` is returned as `.tooLong`.
    static func decode(_ buffer: Data, limit: Int) -> Decoded? {
        let bytes = [UInt8](buffer.prefix(14))
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            var wide: UInt64 = 0
            for index in 2..<10 { wide = wide << 8 | UInt64(bytes[index]) }
            guard wide <= UInt64(limit) else { return .tooLong }
            length = Int(wide)
            offset = 10
        }
        guard length <= limit else { return .tooLong }
        let masked = bytes[1] & 0x80 != 0
        let maskEnd = offset + (masked ? 4 : 0)
        guard buffer.count >= maskEnd + length else { return nil }
        let start = buffer.startIndex
        var payload = [UInt8](buffer[(start + maskEnd)..<(start + maskEnd + length)])
        if masked {
            let key = [UInt8](buffer[(start + offset)..<(start + offset + 4)])
            for index in payload.indices { payload[index] ^= key[index % 4] }
        }
        let frame = WebSocketFrame(opcode: bytes[0] & 0x0F, payload: Data(payload), fin: bytes[0] & 0x80 != 0)
        return .frame(frame, masked: masked, length: maskEnd + length)
    }

    /// The first frame of `bytes`, masked or not, or `nil`: for tests of the codec.
    package static func decodedForTests(_ bytes: Data) -> WebSocketFrame? {
        guard case .frame(let frame, _, _)? = decode(bytes, limit: .max) else { return nil }
        return frame
    }

    /// What ``decode(_:limit:)`` found.
    enum Decoded {
        case frame(WebSocketFrame, masked: Bool, length: Int)
        case tooLong
    }
}
