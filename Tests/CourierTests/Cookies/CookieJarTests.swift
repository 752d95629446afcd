import Courier
import Foundation
import Testing

/// Which cookies a jar sends where, in what order, for how long, and how many it keeps.
@Suite("CookieJar")
struct CookieJarTests {
    let clock = ManualClock()

    func url(_ text: String) -> URL { URL(string: text)! }

    @Test("host-only cookies go to their host only; domain cookies to its subdomains too; never to another site")
    func domainMatching() {
        let jar = CookieJar(clock: clock)
        jar.store(["host=1", "wide=2; Domain=example.com"], from: url("https://www.example.com/"))

        #expect(jar.headerValue(for: url("https://www.example.com/")) == "host=1; wide=2")
        #expect(jar.headerValue(for: url("https://api.example.com/")) == "wide=2")
        #expect(jar.headerValue(for: url("https://example.com/")) == "wide=2")
        #expect(jar.headerValue(for: url("https://notexample.com/")) == nil)
        #expect(jar.headerValue(for: url("https://a.www.example.com/")) == "wide=2")
    }

    @Test("paths match on segment boundaries; longer paths first, then older cookies first")
    func pathsAndOrder() {
        let jar = CookieJar(clock: clock)
        jar.store(["root=1; Path=/"], from: url("https://x.test/"))
        clock.advance(1)
        jar.store(["deep=2; Path=/api/v1", "mid=3; Path=/api"], from: url("https://x.test/"))
        clock.advance(1)
        jar.store(["late=4; Path=/"], from: url("https://x.test/"))

        #expect(jar.headerValue(for: url("https://x.test/api/v1/users")) == "deep=2; mid=3; root=1; late=4")
        #expect(jar.headerValue(for: url("https://x.test/apis")) == "root=1; late=4")
        #expect(jar.headerValue(for: url("https://x.test/api")) == "mid=3; root=1; late=4")
    }

    @Test("Secure cookies only over https or loopback; an insecure origin cannot overwrite a secure cookie")
    func secure() {
        let jar = CookieJar(clock: clock)
        jar.store(["token=s; Secure"], from: url("https://bank.test/"))
        #expect(jar.headerValue(for: url("http://bank.test/")) == nil)
        #expect(jar.headerValue(for: url("https://bank.test/")) == "token=s")

        jar.store(["token=forged"], from: url("http://bank.test/"))
        #expect(jar.headerValue(for: url("https://bank.test/")) == "token=s")
    }

    @Test("only IP literals in 127.0.0.0/8 count as loopback: 127.example.com is an ordinary insecure host")
    func loopbackIsAnAddress() {
        let jar = CookieJar(clock: clock)
        jar.store(["a=1; Secure"], from: url("http://127.0.0.1/"))
        jar.store(["b=2; Secure"], from: url("http://127.1.2.3/"))
        jar.store(["c=3; Secure"], from: url("http://127.example.com/"))
        jar.store(["d=4; Secure"], from: url("http://127.0.0.1.example.com/"))

        #expect(jar.headerValue(for: url("http://127.0.0.1/")) == "a=1")
        #expect(jar.headerValue(for: url("http://127.1.2.3/")) == "b=2")
        #expect(jar.headerValue(for: url("http://127.example.com/")) == nil)
        #expect(jar.headerValue(for: url("http://127.0.0.1.example.com/")) == nil)
        jar.store(["e=5; Secure"], from: url("https://127.example.com/"))
        #expect(jar.headerValue(for: url("http://127.example.com/")) == nil)
    }

    @Test("paths are read as sent: a trailing slash is kept for matching and for the default path")
    func trailingSlash() {
        let jar = CookieJar(clock: clock)
        jar.store(["docs=1; Path=/docs/"], from: url("https://x.test/login"))
        jar.store(["dir=2"], from: url("https://x.test/guide/"))

        #expect(jar.headerValue(for: url("https://x.test/docs/")) == "docs=1")
        #expect(jar.headerValue(for: url("https://x.test/docs/intro")) == "docs=1")
        #expect(jar.headerValue(for: url("https://x.test/docs")) == nil)
        // Set by /guide/, the default path is /guide (RFC 6265 §5.1.4), not /.
        #expect(jar.cookies.first { $0.name == "dir" }?.path == "/guide")
        #expect(jar.headerValue(for: url("https://x.test/guide/page")) == "dir=2")
        #expect(jar.headerValue(for: url("https://x.test/other")) == nil)
    }

    @Test("a cookie expires on the jar's clock; Max-Age=0 deletes; a replacement keeps its place in the order")
    func expiryAndReplacement() {
        let jar = CookieJar(clock: clock)
        let site = url("https://x.test/")
        jar.store(["a=1; Max-Age=60"], from: site)
        clock.advance(1)
        jar.store(["b=2"], from: site)
        clock.advance(1)
        jar.store(["a=3; Max-Age=60"], from: site)
        #expect(jar.headerValue(for: site) == "a=3; b=2")

        clock.advance(59)
        #expect(jar.headerValue(for: site) == "a=3; b=2")
        clock.advance(1)
        #expect(jar.headerValue(for: site) == "b=2")

        jar.store(["b=gone; Max-Age=0"], from: site)
        #expect(jar.headerValue(for: site) == nil)
        #expect(jar.cookies.isEmpty)
    }

    @Test("50 cookies per domain and 3,000 in all: the least recently sent go first")
    func limits() {
        let jar = CookieJar(clock: clock)
        let site = url("https://x.test/")
        jar.store(["keep=1; Path=/special"], from: site)
        for index in 0..<60 {
            clock.advance(1)
            if index == 30 { #expect(jar.headerValue(for: url("https://x.test/special")) == "keep=1") }  // used now
            jar.store(["c\(index)=v; Path=/other"], from: site)
        }
        let names = Set(jar.cookies.map(\.name))
        #expect(names.count == CookieJar.maximumPerDomain)
        #expect(names.contains("keep"))
        #expect(!names.contains("c0"))

        for host in 0..<70 {
            jar.store((0..<50).map { "n\($0)=v" }, from: url("https://h\(host).test/"))
        }
        #expect(jar.cookies.count == CookieJar.maximumCount)
    }

    @Test("a persistent jar keeps its persistent cookies across a restart, not its session cookies")
    func persistence() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-jar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let site = url("https://x.test/")

        let first = CookieJar(persistingTo: file, clock: clock)
        first.store(["kept=1; Max-Age=3600", "session=2"], from: site)
        let restarted = CookieJar(persistingTo: file, clock: clock)
        #expect(restarted.headerValue(for: site) == "kept=1")

        clock.advance(3600)
        #expect(CookieJar(persistingTo: file, clock: clock).cookies.isEmpty)
    }

    @Test("a corrupt or truncated file starts an empty jar, which then writes a good one")
    func corruptFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-jar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let site = url("https://x.test/")
        let good = CookieJar(persistingTo: file, clock: clock)
        good.store(["kept=1; Max-Age=3600"], from: site)
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)

        let recovered = CookieJar(persistingTo: file, clock: clock)
        #expect(recovered.cookies.isEmpty)
        recovered.store(["again=1; Max-Age=3600"], from: site)
        #expect(CookieJar(persistingTo: file, clock: clock).headerValue(for: site) == "again=1")
    }
}
