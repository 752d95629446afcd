import Courier
import Foundation
import Testing

@Suite("URL path joining")
struct URLPathComponentTests {
    static let bases = [
        "https://api.github.com", "https://api.github.com/", "https://x.com/v1", "https://x.com/v1/",
        "http://127.0.0.1:8080", "https://x.com/v1?key=1", "https://user@x.com/a%20b", "https://x.com/v1#top",
    ]
    static let paths = [
        "/users/octocat", "users", "/", "a/b/", "/a//b", "//double", "é", "a b", "a?b", "a#b", "%20",
        "/users/octo.cat-_~", "a;b", "a:b", "a@b", "a+b", "a=b", "a&b", "a,b", "a$b", "a!b", "a'b", "a(b)", "a*b",
    ]

    @Test("the quick join gives exactly what appendingPathComponent gives", arguments: bases)
    func sameAsFoundation(base: String) throws {
        let url = try #require(URL(string: base))
        for path in Self.paths {
            #expect(url.appendingPathComponentQuickly(path) == url.appendingPathComponent(path), "\(base) + \(path)")
        }
    }
}
