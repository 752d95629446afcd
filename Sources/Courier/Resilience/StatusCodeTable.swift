/// A set of status codes (100 to 999) as bits: a lookup per exchange without hashing, which a
/// `Set<Int>` costs (about 130 instructions each, Benchmarks/count).
struct StatusCodeTable: Sendable {
    private var words = [UInt64](repeating: 0, count: 16)

    init(_ codes: Set<Int>) {
        for code in codes where (0..<1024).contains(code) {
            words[code >> 6] |= 1 << UInt64(code & 63)
        }
    }

    /// Whether `code` is in the set.
    func contains(_ code: Int) -> Bool {
        guard (0..<1024).contains(code) else { return false }
        return words[code >> 6] & (1 << UInt64(code & 63)) != 0
    }
}
