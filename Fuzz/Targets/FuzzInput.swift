import Foundation

/// Turns a fuzzer's bytes into values, one decision at a time; an exhausted input gives zeros.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ pointer: UnsafePointer<UInt8>, _ count: Int) {
        bytes = Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    var isEmpty: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func int() -> Int {
        (0..<8).reduce(0) { value, _ in value << 8 | Int(byte()) }
    }

    mutating func data(maximum: Int) -> Data {
        let count = min(Int(byte()) % (maximum + 1), bytes.count - position)
        defer { position += max(0, count) }
        return count > 0 ? Data(bytes[position..<position + count]) : Data()
    }

    mutating func string(maximum: Int = 16) -> String {
        String(decoding: data(maximum: maximum), as: UTF8.self)
    }

    /// The rest of the input.
    mutating func rest() -> Data {
        defer { position = bytes.count }
        return position < bytes.count ? Data(bytes[position...]) : Data()
    }
}
