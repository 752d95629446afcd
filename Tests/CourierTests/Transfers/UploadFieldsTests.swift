import Foundation
import Testing

@testable import Courier

/// The resumable upload draft's fields as Courier reads them: well-formed Structured Field
/// Values, anything else absent.
@Suite("Upload fields")
struct UploadFieldsTests {
    @Test("booleans and integers")
    func items() {
        #expect(UploadFields.boolean("?1") == true)
        #expect(UploadFields.boolean(" ?0 ") == false)
        for text in ["1", "true", "?2", "", "? 1"] { #expect(UploadFields.boolean(text) == nil) }
        #expect(UploadFields.integer("0") == 0)
        #expect(UploadFields.integer("123456789012345") == 123_456_789_012_345)
        for text in ["-1", "1.5", "", "1234567890123456", "12 3", "+4"] { #expect(UploadFields.integer(text) == nil) }
    }

    @Test("Upload-Limit's sizes, other members and malformed ones skipped")
    func limits() {
        let limits = UploadFields.limits("min-size=0, max-size=1000, max-append-size=100, expires=60")
        #expect(limits.maxSize == 1000)
        #expect(limits.maxAppendSize == 100)
        let odd = UploadFields.limits("max-size=-5, max-append-size, max-size=?1")
        #expect(odd.maxSize == nil)
        #expect(odd.maxAppendSize == nil)
        #expect(UploadFields.limits(nil).maxSize == nil)
    }
}
