import Foundation
import Testing

@testable import Courier

@Suite("JoinedURLs")
struct JoinedURLsTests {
    @Test("a known text gives the URL Foundation parses, and the table stays bounded")
    func bounded() throws {
        let known = JoinedURLs()
        let base = try #require(URL(string: "https://api.example.com/v1"))
        for index in 0..<(JoinedURLs.capacity + 10) {
            let path = "items/\(index)"
            #expect(base.appendingPathComponentQuickly(path, known: known) == base.appendingPathComponent(path))
        }
        #expect(known.count <= JoinedURLs.capacity)
        #expect(base.appendingPathComponentQuickly("items/3", known: known) == base.appendingPathComponent("items/3"))
    }

    @Test("a URL is found by its base and its path: the same path on another base is another URL")
    func keyedByBaseAndPath() throws {
        let known = JoinedURLs()
        let first = try #require(URL(string: "https://one.example.com/v1"))
        let second = try #require(URL(string: "https://two.example.com/v1"))
        for base in [first, second, first, first, second] {
            #expect(base.appendingPathComponentQuickly("items", known: known) == base.appendingPathComponent("items"))
        }
        #expect(known.count == 2)
    }

    @Test("the default mapping of a provider gives the same endpoint URL as the static one")
    func sameAsStatic() {
        let provider = Provider<SampleAPI>()
        for target in [SampleAPI.user("a"), .user("b"), .user("a")] {
            #expect(provider.endpoint(target).url == Provider<SampleAPI>.defaultEndpointMapping(for: target).url)
        }
    }

    @Test(
        "the default mapping called from a closure of the caller's keeps what it joined in the running provider's table"
    )
    func customClosureUsesTheProvidersTable() {
        let known = JoinedURLs()
        let mapped = JoinedURLs.$current.withValue(known) {
            Provider<SampleAPI>.defaultEndpointMapping(for: .user("a")).replacing(task: .requestPlain)
        }
        #expect(known.count == 1)
        #expect(mapped.url == Provider<SampleAPI>.defaultEndpointMapping(for: .user("a")).url)
        // Outside a provider's closure nothing is kept anywhere.
        #expect(JoinedURLs.current == nil)

        let provider = Provider<SampleAPI>(endpointClosure: { target in
            #expect(JoinedURLs.current != nil)
            return Provider<SampleAPI>.defaultEndpointMapping(for: target)
        })
        #expect(provider.endpoint(.user("b")).url == Provider<SampleAPI>.defaultEndpointMapping(for: .user("b")).url)
    }
}
