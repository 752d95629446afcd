import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Endpoint")
struct EndpointTests {
    private func endpoint(_ target: some TargetType) -> Endpoint {
        Endpoint(
            url: target.url.absoluteString, sampleResponseClosure: { .networkResponse(200, Data()) },
            method: target.method, task: target.task, httpHeaderFields: target.headers,
            options: .init(timeoutInterval: target.timeoutInterval, cachePolicy: target.cachePolicy))
    }

    @Test("builds URL, method and headers")
    func basics() throws {
        let request = try endpoint(SampleAPI.user("octocat")).urlRequest()
        #expect(request.url?.absoluteString == "https://api.example.com/v1/users/octocat")
        #expect(request.httpMethod == "GET")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.httpBody == nil)
    }

    @Test("parameters go to the query of a GET")
    func parameters() throws {
        let request = try endpoint(SampleAPI.search(query: "swift nio", page: 2)).urlRequest()
        #expect(request.url?.query == "page=2&q=swift%20nio")
    }

    @Test("an Encodable body is JSON with application/json")
    func encodable() throws {
        let request = try endpoint(SampleAPI.create(NewItem(name: "pen", count: 3))).urlRequest()
        #expect(
            try JSONDecoder().decode(NewItem.self, from: request.httpBody ?? Data()) == NewItem(name: "pen", count: 3))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("a custom encoder is used")
    func customEncoder() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Body: Encodable, Sendable { let itemCount: Int }
        let base = endpoint(SampleAPI.create(NewItem(name: "a", count: 1)))
        let request = try base.replacing(task: .requestCustomJSONEncodable(Body(itemCount: 2), encoder: encoder))
            .urlRequest()
        #expect(String(decoding: request.httpBody ?? Data(), as: UTF8.self) == #"{"item_count":2}"#)
    }

    @Test("an Encodable that throws is .encodableMapping")
    func encodableFails() {
        struct Broken: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
            }
        }
        let base = endpoint(SampleAPI.create(NewItem(name: "a", count: 1))).replacing(
            task: .requestJSONEncodable(Broken()))
        #expect { try base.urlRequest() } throws: {
            ($0 as? CourierError)?.stage == .building && "\($0)".contains("encode")
        }
    }

    @Test("composite data: raw body plus query parameters")
    func compositeData() throws {
        let base = endpoint(SampleAPI.upload(Data()))
        let request = try base.replacing(
            task: .requestCompositeData(bodyData: Data("raw".utf8), urlParameters: ["v": 2])
        ).urlRequest()
        #expect(request.httpBody == Data("raw".utf8))
        #expect(request.url?.query == "v=2")
    }

    @Test("composite parameters: a URLEncoding body always writes the body")
    func compositeParameters() throws {
        let base = endpoint(SampleAPI.upload(Data()))
        let task = HTTPTask.requestCompositeParameters(
            bodyParameters: ["a": 1], bodyEncoding: URLEncoding.queryString, urlParameters: ["q": "x"])
        let request = try base.replacing(task: task).urlRequest()
        #expect(request.httpBody == Data("a=1".utf8))
        #expect(request.url?.query == "q=x")
    }

    @Test("adding headers merges, new values win; replacing keeps the rest")
    func addingHeaders() throws {
        let base = endpoint(SampleAPI.user("a"))
        let merged = base.adding(newHTTPHeaderFields: ["Accept": "text/plain", "X-Trace": "1"])
        #expect(merged.httpHeaderFields == ["Accept": "text/plain", "X-Trace": "1"])
        #expect(base.adding(newHTTPHeaderFields: [:]).httpHeaderFields == base.httpHeaderFields)
        #expect(merged.url == base.url)
    }

    @Test("per-target timeout and cache policy reach the request")
    func options() throws {
        struct Slow: TargetType {
            var baseURL: URL { URL(string: "https://example.com")! }
            var path: String { "/slow" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var timeoutInterval: TimeInterval? { 2.5 }
            var cachePolicy: URLRequest.CachePolicy? { .reloadIgnoringLocalCacheData }
        }
        let request = try Provider<Slow>.defaultEndpointMapping(for: Slow()).urlRequest()
        #expect(request.timeoutInterval == 2.5)
        #expect(request.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test("an invalid URL is .requestMapping")
    func invalidURL() {
        let bad = Endpoint(
            url: "", sampleResponseClosure: { .networkResponse(200, Data()) }, method: .get, task: .requestPlain,
            httpHeaderFields: nil)
        #expect { try bad.urlRequest() } throws: {
            guard case .requestMapping("")? = $0 as? CourierError else { return false }
            return true
        }
    }

    @Test("a GET with a body is refused before anything is sent")
    func getWithBody() {
        let bad = endpoint(SampleAPI.user("a")).replacing(task: .requestData(Data("x".utf8)))
        #expect { try bad.urlRequest() } throws: {
            guard case .requestBuilding(let error)? = $0 as? CourierError else { return false }
            return error as? RequestValidationError == .bodyNotAllowed(.get)
        }
    }

    @Test("a parameter encoding failure is .parameterEncoding")
    func parameterEncodingFails() {
        let bad = endpoint(SampleAPI.user("a")).replacing(
            task: .requestParameters(parameters: ["d": Date()], encoding: JSONEncoding.default))
        #expect { try bad.urlRequest() } throws: {
            guard case .parameterEncoding(let error)? = $0 as? CourierError else { return false }
            return error is ParameterEncodingError
        }
    }

    @Test("HTTPMethod is an open set and upper-cases its token")
    func methods() {
        #expect(HTTPMethod(rawValue: "propfind").rawValue == "PROPFIND")
        #expect(HTTPMethod(rawValue: "get") == .get)
    }

    @Test("headers differing only in case merge case-insensitively: the later value wins, every time")
    func caseInsensitiveMerge() throws {
        let endpoint = Endpoint(
            url: "https://api.example.com/items", sampleResponseClosure: { .networkResponse(200, Data()) },
            method: .post, task: .requestPlain, httpHeaderFields: ["Content-Type": "text/plain", "Accept": "*/*"])
        for _ in 0..<50 {
            let merged = endpoint.adding(newHTTPHeaderFields: ["content-type": "application/json"])
            #expect(merged.httpHeaderFields == ["content-type": "application/json", "Accept": "*/*"])
            #expect(try merged.urlRequest().value(forHTTPHeaderField: "Content-Type") == "application/json")
        }
    }

    @Test("one dictionary with a name in two cases gives the same header every launch: the spelling sorting last")
    func caseDuplicatesInOneDictionary() throws {
        // Swift seeds dictionary order per process, so the old result changed from launch to launch;
        // different key sets give different orders within one process too.
        for extra in 0..<40 {
            var fields = ["Content-Type": "text/plain", "content-type": "application/json"]
            for index in 0..<extra { fields["X-\(index)"] = "\(index)" }
            let request = try Endpoint(
                url: "https://api.example.com/items", sampleResponseClosure: { .networkResponse(200, Data()) },
                method: .post, task: .requestPlain, httpHeaderFields: fields
            ).urlRequest()
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(request.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "content-type" }.count == 1)
        }
    }
}
