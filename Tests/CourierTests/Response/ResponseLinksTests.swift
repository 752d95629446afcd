import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Response.links`: the `Link` fields of RFC 8288, and following a paginated API through them.
@Suite("Response links")
struct ResponseLinksTests {
    func response(_ links: [String], url: String = "https://api.github.test/user/repos?page=2") -> Response {
        var fields = HeaderFields()
        for link in links { fields.append(name: "Link", value: link) }
        return Response(
            statusCode: 200, data: Data(), request: URLRequest(url: URL(string: url)!), headerFields: fields)
    }

    @Test("GitHub's field: next, last, first and prev by relation")
    func github() {
        let links = response([
            #"<https://api.github.test/user/repos?page=3&per_page=100>; rel="next", "#
                + #"<https://api.github.test/user/repos?page=50&per_page=100>; rel="last", "#
                + #"<https://api.github.test/user/repos?page=1&per_page=100>; rel="first", "#
                + #"<https://api.github.test/user/repos?page=1&per_page=100>; rel="prev""#
        ]).links

        #expect(links["next"]?.absoluteString == "https://api.github.test/user/repos?page=3&per_page=100")
        #expect(links["last"]?.absoluteString == "https://api.github.test/user/repos?page=50&per_page=100")
        #expect(links.count == 4)
    }

    @Test("relative targets, several types in one rel, quoted commas, unquoted values, case, fields apart")
    func grammar() {
        let links = response([
            #"</items?page=3>; title="a, b; c"; rel="next NEXT-archive", <../up>; REL=up"#,
            ##"<https://elsewhere.test/x>; rel=alternate; anchor="#other", <https://api.github.test/l>;rel="last""##,
        ]).links

        #expect(links["next"]?.absoluteString == "https://api.github.test/items?page=3")
        #expect(links["next-archive"] == links["next"])
        #expect(links["up"]?.absoluteString == "https://api.github.test/up")
        #expect(links["alternate"] == nil)  // about another resource (anchor)
        #expect(links["last"]?.absoluteString == "https://api.github.test/l")
    }

    @Test("no field, an empty one, garbage: no links, no crash")
    func malformed() {
        #expect(response([]).links.isEmpty)
        #expect(response([""]).links.isEmpty)
        #expect(response(["<unclosed; rel=next", "no brackets; rel=next", "<>; rel", ";;;,,,<"]).links.isEmpty)
        #expect(response([#"<https://a.test/>; rel="unterminated"#]).links["unterminated"] != nil)
    }

    enum Repos: TargetType {
        case list(base: URL)
        case page(URL)
        var baseURL: URL {
            switch self {
            case .list(let base): base
            case .page(let url): url
            }
        }
        var path: String {
            if case .list = self { return "/repos" }
            return ""
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    @Test("following next from page to page against a loopback server: every page once, in order")
    func following() async throws {
        let server = try LoopbackServer { request in
            let page = Int(request.query?.split(separator: "=").last ?? "1") ?? 1
            var headers = ["Content-Type": "text/plain"]
            if page < 4 { headers["Link"] = #"</repos?page=\#(page + 1)>; rel="next", </repos?page=4>; rel="last""# }
            return ServerReply(headers: headers, body: Data("page \(page)".utf8))
        }
        defer { server.stop() }
        let provider = Provider<Repos>(transport: URLSessionTransport())

        var page = try await provider.request(.list(base: server.baseURL))
        var bodies = [String(decoding: page.data, as: UTF8.self)]
        while let next = page.links["next"], next.host == page.request?.url?.host {
            page = try await provider.request(.page(next))
            bodies.append(String(decoding: page.data, as: UTF8.self))
        }

        #expect(bodies == ["page 1", "page 2", "page 3", "page 4"])
        #expect(server.requests.map(\.target) == ["/repos", "/repos?page=2", "/repos?page=3", "/repos?page=4"])
    }
}

@Suite("Endpoint.replacing(url:)")
struct EndpointReplacingURLTests {
    @Test("a URL string and a URL give the same request; a string that is no URL fails when built")
    func stringAndURLAgree() throws {
        let endpoint = Endpoint(
            url: "https://api.test/a", sampleResponseClosure: { .networkResponse(200, Data()) }, method: .get,
            task: .requestPlain, httpHeaderFields: ["Accept": "text/plain"])
        let next = "https://api.test/a?page=2"

        let byString = try endpoint.replacing(url: next).urlRequest()
        let byURL = try endpoint.replacing(url: URL(string: next)!).urlRequest()

        #expect(byString.url == byURL.url)
        #expect(byString.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(throws: (any Error).self) { try endpoint.replacing(url: "http://[bad").urlRequest() }
    }
}
