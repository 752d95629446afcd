import Foundation
import Testing

@testable import Courier

@Suite("Cache-Control directives")
struct CacheDirectivesTests {
    /// Lines with quotes, escapes, blanks, upper case, empty items, `=` in values, non-ASCII.
    static let lines = [
        "max-age=60", "Max-Age=60, Public", " no-cache , no-store ", "\tmax-age = 5\t,private",
        #"no-cache="Set-Cookie, X-Token", max-age=10"#, #"private="a\"b", s-maxage=3"#, "max-age=\"7\"",
        "a=b=c", ",,max-age=1,", "", "=", "  ", "MAX-AGE=1, max-age=2", #"ext="x=y,z""#, "no-cache=\"\"",
        "max-age=60, caf\u{E9}", "private=\"\u{00A0}x\"", "stale-while-revalidate=30\r\n",
    ]

    @Test("an ASCII line gives on its bytes what the Character path gives", arguments: lines)
    func bytesAsCharacters(_ line: String) {
        #expect(CacheDirectives.items(line) == CacheDirectives.characterItems(line))
    }

    @Test("directives read from a line: names without case, values unquoted, a repeated max-age invalid")
    func directives() {
        let fields: HeaderFields = ["Cache-Control": #"Max-Age=60, no-cache="Set-Cookie", public"#]
        let directives = CacheDirectives(fields)
        #expect(directives.seconds("max-age") == .seconds(60))
        #expect(directives.fieldNames("no-cache") == ["set-cookie"])
        #expect(directives.has("public"))
        #expect(CacheDirectives(["Cache-Control": "max-age=1, max-age=2"]).seconds("max-age") == .invalid)
    }

    @Test("delta-seconds: digits only, at least one, at most 2^31")
    func deltaSeconds() {
        #expect(CacheDirectives.deltaSeconds("60") == 60)
        #expect(CacheDirectives.deltaSeconds("007") == 7)
        #expect(CacheDirectives.deltaSeconds("99999999999999999999999") == CacheDirectives.maximumDelta)
        for bad in ["", "-1", "6 0", "1.5", "٦٠", "+1"] {
            #expect(CacheDirectives.deltaSeconds(bad) == nil, "\(bad)")
        }
    }

    @Test("an Age line: its first member, blanks around it ignored, digits only")
    func age() {
        #expect(CacheFreshness.age("60") == 60)
        #expect(CacheFreshness.age(" \t60 , 70") == 60)
        #expect(CacheFreshness.age("999999999999999") == 99_999_999_999)
        for bad in ["", " ", "abc", "6 0", "-5", ",60"] {
            #expect(CacheFreshness.age(bad) == nil, "\(bad)")
        }
    }
}
