import Foundation

/// The loopback server's request reader over arbitrary bytes in arbitrary pieces: requests,
/// refusals or a close, never a crash or a loop.
public func fuzzRequestReader(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let pieceSize = Int(input.byte()) % 64 + 1
    let bytes = input.rest()
    nonisolated(unsafe) var offset = bytes.startIndex
    var reader = HTTPRequestReader(read: {
        guard offset < bytes.endIndex else { return Data() }
        let end = min(offset + pieceSize, bytes.endIndex)
        defer { offset = end }
        return Data(bytes[offset..<end])
    })
    var requests = 0
    while true {
        switch reader.next() {
        case .request(let request):
            requests += 1
            precondition(request.body.count <= bytes.count, "a body longer than the input")
            precondition(requests <= bytes.count + 1, "more requests than bytes")
        case .invalid, .closed:
            return 0
        }
    }
}
