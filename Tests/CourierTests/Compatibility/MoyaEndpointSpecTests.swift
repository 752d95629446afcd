import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What Moya's EndpointSpec and MethodSpec expect of an `Endpoint` and a method: endpoints compare
/// and hash by the request they build; an empty form builds; `supportsMultipart`.
@Suite("Moya's endpoint and method specs")
struct MoyaEndpointSpecTests {
    private static func endpoint(
        _ url: String = "https://api.example.com/users", method: HTTPMethod = .get, task: HTTPTask = .requestPlain,
        headers: [String: String]? = ["Accept": "application/json"]
    ) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: { .networkResponse(200, Data()) }, method: method, task: task,
            httpHeaderFields: headers)
    }

    @Test("two endpoints of the same request are equal and hash alike; a sample response is not compared")
    func equalEndpoints() {
        let one = Self.endpoint()
        let other = Self.endpoint().replacing(sampleResponseClosure: { .networkResponse(404, Data("x".utf8)) })
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(Set([one, other]).count == 1)
        var table: [Endpoint: Int] = [:]
        table[one, default: 0] += 1
        table[other, default: 0] += 1
        #expect(table[one] == 2)
    }

    @Test("header names compare without case; parameters compare by the query they build")
    func sameRequestOtherForm() {
        let lower = Self.endpoint(headers: ["accept": "application/json"])
        #expect(lower == Self.endpoint())
        let query = Self.endpoint("https://api.example.com/users?page=2")
        let parameters = Self.endpoint(
            task: .requestParameters(parameters: ["page": 2], encoding: URLEncoding.queryString))
        #expect(query == parameters)
        #expect(query.hashValue == parameters.hashValue)
    }

    @Test("a different URL, method, header value, parameter, body, option or upload file is a different endpoint")
    func differentEndpoints() {
        let base = Self.endpoint()
        let others: [Endpoint] = [
            Self.endpoint("https://api.example.com/teams"),
            Self.endpoint(method: .delete),
            Self.endpoint(headers: ["Accept": "text/plain"]),
            base.adding(newHTTPHeaderFields: ["X-Trace": "1"]),
            Self.endpoint(task: .requestParameters(parameters: ["page": 3], encoding: URLEncoding.queryString)),
            Self.endpoint(method: .post, task: .requestData(Data("a".utf8))),
            base.replacing(options: Endpoint.Options(timeoutInterval: 5)),
        ]
        for other in others { #expect(base != other) }
        #expect(
            Self.endpoint(method: .post, task: .requestData(Data("a".utf8)))
                != Self.endpoint(method: .post, task: .requestData(Data("b".utf8))))
        let upload = { (path: String) in
            Self.endpoint(method: .post, task: .uploadFile(URL(fileURLWithPath: path)))
        }
        #expect(upload("/tmp/a.bin") == upload("/tmp/a.bin"))
        #expect(upload("/tmp/a.bin") != upload("/tmp/b.bin"))
    }

    @Test("multipart forms compare by their parts; an upload stream by the value it is")
    func multipartAndStreams() {
        func form(_ text: String) -> HTTPTask {
            var form = MultipartFormData(boundary: "fixed")
            form.append(Data(text.utf8), name: "note")
            return .uploadMultipartFormData(form)
        }
        #expect(Self.endpoint(method: .post, task: form("a")) == Self.endpoint(method: .post, task: form("a")))
        #expect(Self.endpoint(method: .post, task: form("a")) != Self.endpoint(method: .post, task: form("b")))
        let stream = UploadStream(length: 1) { InputStream(data: Data("a".utf8)) }
        let again = Self.endpoint(method: .put, task: .uploadStream(stream))
        #expect(again == Self.endpoint(method: .put, task: .uploadStream(stream)))
        let another = UploadStream(length: 1) { InputStream(data: Data("a".utf8)) }
        #expect(again != Self.endpoint(method: .put, task: .uploadStream(another)))
    }

    @Test("endpoints that cannot build a request compare by their URL, method and header fields")
    func unbuildable() {
        let bad = Self.endpoint("not a url")
        #expect(bad == Self.endpoint("not a url"))
        #expect(bad.hashValue == Self.endpoint("not a url").hashValue)
        #expect(bad != Self.endpoint("also not a url"))
        #expect(bad != Self.endpoint())
    }

    @Test("an empty multipart form builds, as in Moya (a provider still refuses to send it: TransferTests)")
    func emptyFormBuilds() async throws {
        let form = MultipartFormData(boundary: "empty")
        let endpoint = Self.endpoint(method: .post, task: .uploadMultipartFormData(form))
        let request = try endpoint.urlRequest()
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=empty")
        #expect(endpoint == Self.endpoint(method: .post, task: .uploadMultipartFormData(form)))
    }

    @Test(
        "supportsMultipart: POST, PUT, PATCH and CONNECT only",
        arguments: [
            (HTTPMethod.post, true), (.put, true), (.patch, true), (.connect, true), (.get, false), (.head, false),
            (.delete, false), (.options, false), (.trace, false), (.query, false),
        ])
    func supportsMultipart(method: HTTPMethod, supports: Bool) {
        #expect(method.supportsMultipart == supports)
    }
}

@Suite("Moya's multipart and progress names")
struct MoyaMultipartProgressNamesTests {
    @Test("a form written as an array literal of parts, as Moya's")
    func formAsArrayLiteral() {
        let form: MultipartFormData = [
            MultipartFormBodyPart(content: .data(Data("a".utf8)), name: "a"),
            MultipartFormBodyPart(content: .data(Data("b".utf8)), name: "b", fileName: "b.txt", mimeType: "text/plain"),
        ]
        #expect(form.parts.map(\.name) == ["a", "b"])
        #expect(form.contentType.hasPrefix("multipart/form-data; boundary="))
    }
}
