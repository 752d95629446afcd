import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A HAR file written by another tool (by hand here, from the HAR 1.2 specification, with the
/// fields browsers add) replays; matching rules beyond the default.
@Suite("HAR files from other tools")
struct HARForeignFileTests {
    private struct Shop: TargetType {
        var path: String
        var query: [String: any Sendable] = [:]
        var method: HTTPMethod = .get
        var body: Data?
        var baseURL: URL { URL(string: "https://shop.example.invalid/api")! }
        var task: HTTPTask {
            if let body { return .requestData(body) }
            return query.isEmpty
                ? .requestPlain : .requestParameters(parameters: query, encoding: URLEncoding.queryString)
        }
        var headers: [String: String]? { ["Accept": "application/json"] }
        var validationType: ValidationType { .successCodes }
    }

    /// Two entries as a browser exports them: pages, cookies, every timing, a Base64 body.
    private static let har = #"""
        {
          "log": {
            "version": "1.2",
            "creator": {"name": "WebInspector", "version": "537.36"},
            "browser": {"name": "Chrome", "version": "131"},
            "pages": [{"startedDateTime": "2026-11-27T10:00:00.000Z", "id": "page_1", "title": "Shop",
                       "pageTimings": {"onContentLoad": 120, "onLoad": 300}}],
            "entries": [
              {
                "pageref": "page_1",
                "startedDateTime": "2026-11-27T10:00:00.100Z",
                "time": 42.5,
                "request": {
                  "method": "GET",
                  "url": "https://shop.example.invalid/api/items?sort=price&page=2",
                  "httpVersion": "HTTP/2",
                  "cookies": [{"name": "theme", "value": "dark"}],
                  "headers": [{"name": "Accept", "value": "application/json"}],
                  "queryString": [{"name": "sort", "value": "price"}, {"name": "page", "value": "2"}],
                  "headersSize": -1,
                  "bodySize": 0
                },
                "response": {
                  "status": 200,
                  "statusText": "OK",
                  "httpVersion": "HTTP/2",
                  "cookies": [],
                  "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "ETag", "value": "\"v7\""}],
                  "content": {"size": 27, "mimeType": "application/json", "text": "[{\"id\":1},{\"id\":2,\"n\":\"b\"}]"},
                  "redirectURL": "",
                  "headersSize": -1,
                  "bodySize": 27,
                  "_transferSize": 180
                },
                "cache": {},
                "timings": {"blocked": 0.5, "dns": -1, "connect": -1, "ssl": -1, "send": 0.2, "wait": 40.1, "receive": 1.7},
                "serverIPAddress": "192.0.2.10",
                "connection": "443"
              },
              {
                "startedDateTime": "2026-11-27T10:00:01.000Z",
                "time": 10,
                "request": {
                  "method": "POST",
                  "url": "https://shop.example.invalid/api/logo",
                  "httpVersion": "HTTP/1.1",
                  "cookies": [],
                  "headers": [{"name": "Content-Type", "value": "text/plain"}],
                  "queryString": [],
                  "postData": {"mimeType": "text/plain", "text": "png please"},
                  "headersSize": -1,
                  "bodySize": 10
                },
                "response": {
                  "status": 201,
                  "statusText": "Created",
                  "httpVersion": "HTTP/1.1",
                  "cookies": [],
                  "headers": [{"name": "Content-Type", "value": "image/png"}],
                  "content": {"size": 8, "mimeType": "image/png", "text": "iVBORw0KGgo=", "encoding": "base64"},
                  "redirectURL": "",
                  "headersSize": -1,
                  "bodySize": 8
                },
                "cache": {},
                "timings": {"send": 1, "wait": 8, "receive": 1}
              }
            ]
          }
        }
        """#

    private static func file() throws -> URL {
        let url = try Scratch.folder().appendingPathComponent("shop.har")
        try Data(har.utf8).write(to: url)
        return url
    }

    @Test("a browser's export replays: the query's items in any order, a Base64 body decoded")
    func browserExport() async throws {
        let provider = Provider<Shop>(transport: try HARReplayer(file: Self.file(), order: .firstMatch))
        let items = try await provider.request(Shop(path: "items", query: ["page": 2, "sort": "price"]))
        #expect(items.statusCode == 200)
        #expect(try items.mapString() == #"[{"id":1},{"id":2,"n":"b"}]"#)
        #expect(items.headerFields["ETag"] == "\"v7\"")
        let logo = try await provider.request(Shop(path: "logo", method: .post, body: Data("png please".utf8)))
        #expect(logo.statusCode == 201)
        #expect(logo.data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test("matching by body and by header: a different body or header value does not match")
    func stricterMatching() async throws {
        var matching = HARMatching.default
        matching.body = true
        matching.headers = ["Accept"]
        let replayer = try HARReplayer(file: Self.file(), matching: matching, order: .firstMatch)
        let provider = Provider<Shop>(transport: replayer)
        let error = await #expect(throws: CourierError.self) {
            try await provider.request(Shop(path: "logo", method: .post, body: Data("jpeg please".utf8)))
        }
        let text = (error?.underlyingError as? HARReplayError)?.description ?? ""
        #expect(text.contains("body (10 bytes)"))
        #expect(text.contains("Accept: (none)"))

        matching.headers = []
        matching.custom = { request, recorded in request.url?.path == recorded.url?.path }
        let custom = Provider<Shop>(
            transport: try HARReplayer(file: Self.file(), matching: matching, order: .firstMatch))
        #expect(
            try await custom.request(Shop(path: "logo", method: .post, body: Data("png please".utf8))).statusCode == 201
        )
    }

    @Test("a file that is not HAR is refused with its reason")
    func notHAR() throws {
        let url = try Scratch.folder().appendingPathComponent("bad.har")
        try Data(#"{"log": {"entries": [{"request": {}}]}}"#.utf8).write(to: url)
        #expect(throws: HARReplayError.self) { try HARReplayer(file: url) }
    }
}
