extension String {
    /// Whether this text and `other` are the same when ASCII letters are compared without case,
    /// as HTTP compares field names, without making lowercased copies of either (each copy is an
    /// allocation; a request's field checks made several per field).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { bytes in
            other.utf8.withContiguousStorageIfAvailable { otherBytes in
                bytes.elementsEqual(otherBytes) { Self.foldedASCII($0) == Self.foldedASCII($1) }
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8) { Self.foldedASCII($0) == Self.foldedASCII($1) }
    }

    /// Whether every UTF-8 byte of the text satisfies `predicate`: on the contiguous bytes of a
    /// native string, where walking `utf8` one byte at a time cost about 40 instructions a byte
    /// (callgrind).
    func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }

    /// `byte`, lowercased when it is an ASCII capital letter.
    private static func foldedASCII(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
