import Foundation
import Testing

@testable import Courier

/// RFC 9110's three date forms, read one way for the cache, `Retry-After` and the rate limits.
@Suite("HTTPDate")
struct HTTPDateTests {
    let moment = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test("IMF-fixdate, RFC 850 and asctime give the same instant")
    func threeForms() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == moment)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == moment)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == moment)
    }

    @Test("anything else is no date: another zone, a bad day, junk, empty")
    func strict() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "06 Nov 1994", "tomorrow", "", "Sun,  06 Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test("Retry-After reads seconds or one of the three forms, from the given now; a past date is 0")
    func retryAfter() {
        #expect(RetryAfter.delay(" 120 ", now: moment) == 120)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:50:37 GMT", now: moment) == 60)
        #expect(RetryAfter.delay("Sunday, 06-Nov-94 08:50:07 GMT", now: moment) == 30)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:00:00 GMT", now: moment) == 0)
        #expect(RetryAfter.delay("-5", now: moment) == nil)
        #expect(RetryAfter.delay("soon", now: moment) == nil)
    }
}
