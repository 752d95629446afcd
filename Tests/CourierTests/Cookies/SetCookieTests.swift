import Courier
import Foundation
import Testing

/// RFC 6265 §5.2–§5.3 as a jar applies them to `Set-Cookie` lines, through the public API.
@Suite("Set-Cookie parsing and storage rules")
struct SetCookieTests {
    let clock = ManualClock()
    let site = URL(string: "https://www.example.com/account/settings")!

    func jar() -> CookieJar { CookieJar(clock: clock) }

    func stored(_ line: String, from url: URL? = nil) -> [Cookie] {
        let jar = jar()
        jar.store([line], from: url ?? site)
        return jar.cookies
    }

    @Test("name, value and attributes are trimmed; attribute names are case-insensitive; the last of a kind wins")
    func attributes() throws {
        let cookie = try #require(
            stored(" sid = abc 123 ; path=/a; PATH=/account ; SECURE; httponly; SameSite=Lax; Unknown=1").first)
        #expect(cookie.name == "sid")
        #expect(cookie.value == "abc 123")
        #expect(cookie.path == "/account")
        #expect(cookie.isSecure && cookie.isHTTPOnly)
        #expect(cookie.sameSite == "lax")
        #expect(cookie.isHostOnly && cookie.domain == "www.example.com")
        #expect(cookie.expires == nil)
    }

    @Test("lines the RFCs ignore: control characters, no name and no value, more than 4,096 bytes")
    func ignoredLines() {
        #expect(stored("a=b\u{01}c").isEmpty)
        #expect(stored("=").isEmpty)
        #expect(stored("; Path=/").isEmpty)
        #expect(stored("big=" + String(repeating: "x", count: 4_094)).isEmpty)
        #expect(stored("big=" + String(repeating: "x", count: 4_093)).count == 1)
        #expect(stored("token").map(\.value) == ["token"])
    }

    @Test("the default path is the request path's directory; a Path not starting with / is the default")
    func paths() {
        #expect(stored("a=1").first?.path == "/account")
        #expect(stored("a=1; Path=relative").first?.path == "/account")
        #expect(stored("a=1", from: URL(string: "https://www.example.com/top")!).first?.path == "/")
        #expect(stored("a=1", from: URL(string: "https://www.example.com")!).first?.path == "/")
    }

    @Test("Max-Age beats Expires; zero or less deletes; malformed values are ignored; 400 days at most")
    func expiry() throws {
        let now = clock.time
        #expect(stored("a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=60").first?.expires == now + 60)
        #expect(stored("a=1; Max-Age=0").isEmpty)
        #expect(stored("a=1; Max-Age=-5").isEmpty)
        #expect(stored("a=1; Max-Age=1e3").first?.expires == nil)
        #expect(stored("a=1; Max-Age=99999999999").first?.expires == now + 400 * 86_400)
        #expect(stored("a=1; Expires=not a date").first?.expires == nil)
        let expires = try #require(stored("a=1; Expires=Sun, 06 Jun 2027 08:49:37 GMT").first?.expires)
        #expect(expires == Date(timeIntervalSince1970: 1_812_271_777))
        #expect(stored("a=1; Expires=Fri, 06 Nov 2043 08:49:37 GMT").first?.expires == now + 400 * 86_400)
    }

    @Test("cookie dates as RFC 6265 §5.1.1 reads them: any order, two-digit years, invalid fields refused")
    func dates() {
        let jar = jar()
        let expected = Date(timeIntervalSince1970: 1_812_271_777)  // 2027-06-06 08:49:37 UTC
        for text in [
            "Sun, 06 Jun 2027 08:49:37 GMT", "Sunday, 06-Jun-27 08:49:37 GMT", "Sun Jun  6 08:49:37 2027",
            "06 jun 2027 8:49:37",
        ] {
            jar.store(["d=1; Expires=\(text)"], from: site)
            #expect(jar.cookies.first?.expires == expected, "\(text)")
        }
        for invalid in [
            "Sun, 32 Jun 2027 08:49:37 GMT", "Sun, 06 Jun 2027 24:00:00 GMT", "Sun, 06 Jun 1600 08:49:37 GMT",
            "Sun, 31 Feb 2027 08:49:37 GMT", "06 Jun 2027",
        ] {
            let fresh = self.jar()
            fresh.store(["d=1; Expires=\(invalid)"], from: site)
            #expect(fresh.cookies.first?.expires == nil, "\(invalid)")
        }
    }

    @Test(
        "a Domain the host matches makes a domain cookie; another site's, a public suffix's or an IP mismatch is refused"
    )
    func domains() {
        let domainCookie = stored("a=1; Domain=.Example.com").first
        #expect(domainCookie?.domain == "example.com")
        #expect(domainCookie?.isHostOnly == false)
        #expect(stored("a=1; Domain=evil.com").isEmpty)
        #expect(stored("a=1; Domain=ample.com").isEmpty)
        #expect(stored("a=1; Domain=com").isEmpty)
        #expect(stored("a=1; Domain=co.uk", from: URL(string: "https://shop.co.uk/")!).isEmpty)
        #expect(stored("a=1; Domain=github.io", from: URL(string: "https://me.github.io/")!).isEmpty)
        // A public suffix equal to the host is the host itself: a host-only cookie.
        #expect(stored("a=1; Domain=github.io", from: URL(string: "https://github.io/")!).first?.isHostOnly == true)
        let ip = URL(string: "http://127.0.0.1/")!
        #expect(stored("a=1; Domain=0.0.1", from: ip).isEmpty)
        #expect(stored("a=1; Domain=127.0.0.1", from: ip).first?.isHostOnly == true)
        #expect(stored("a=1; Domain=bücher.example", from: URL(string: "https://www.xn--bcher-kva.example/")!).isEmpty)
    }

    @Test("Secure only from a secure origin (loopback counts); the __Secure- and __Host- prefixes are enforced")
    func secureAndPrefixes() {
        let plain = URL(string: "http://www.example.com/")!
        #expect(stored("a=1; Secure", from: plain).isEmpty)
        #expect(stored("a=1; Secure", from: URL(string: "http://127.0.0.1:8080/")!).count == 1)
        #expect(stored("__Secure-a=1").isEmpty)
        #expect(stored("__Secure-a=1; Secure").count == 1)
        #expect(stored("__Host-a=1; Secure; Path=/").count == 1)
        #expect(stored("__host-a=1; Secure; Path=/; Domain=example.com").isEmpty)
        #expect(stored("__Host-a=1; Secure").isEmpty)
    }

    @Test("a cookie's description never shows its value")
    func redacted() throws {
        let cookie = try #require(stored("session=s3cr3t-token; Path=/").first)
        #expect(!cookie.description.contains("s3cr3t"))
        #expect(!"\(stored("session=s3cr3t-token"))".contains("s3cr3t"))
    }
}
