import Foundation
import Testing

@testable import Courier

/// `Content-Range` as a resumed download reads it: one byte range or an unsatisfied range, and
/// nothing else.
@Suite("Content-Range")
struct ContentRangeTests {
    @Test(
        "well-formed ranges",
        arguments: [
            ("bytes 0-99/1000", 0...99 as ClosedRange<Int64>?, 1000 as Int64?),
            ("bytes 100-999/1000", 100...999, 1000),
            ("Bytes  5-5/*", 5...5, nil),
            ("bytes */1000", nil, 1000),
        ])
    func parsed(text: String, bytes: ClosedRange<Int64>?, total: Int64?) throws {
        let range = try #require(ContentRange(text))
        #expect(range.bytes == bytes)
        #expect(range.total == total)
    }

    @Test(
        "anything else is nil, never a crash",
        arguments: [
            "", "bytes", "bytes 100-99/1000", "bytes 0-1000/1000", "bytes -1-5/10", "bytes 1-2-3/10", "bytes */*",
            "items 0-1/2", "bytes 0-1/2/3", "bytes 0 -1/2", "bytes 99999999999999999999-1/2", "bytes +1-2/3",
            "bytes 0-1,3-4/10",
        ])
    func rejected(text: String) {
        #expect(ContentRange(text) == nil)
    }
}
