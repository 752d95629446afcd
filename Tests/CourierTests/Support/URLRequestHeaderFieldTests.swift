import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLRequest.setHeaderField")
struct URLRequestHeaderFieldTests {
    private func request(_ fields: [String: String]) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "https://example.com/a")))
        request.allHTTPHeaderFields = fields
        return request
    }

    @Test("a field of the same name in any case is replaced, the new name kept as given")
    func replaces() throws {
        var request = try request(["AUTHORIZATION": "old", "Accept": "text/plain"])
        request.setHeaderField("Bearer new", named: "Authorization")
        #expect(request.allHTTPHeaderFields == ["Authorization": "Bearer new", "Accept": "text/plain"])
        #expect(request.value(forHTTPHeaderField: "authorization") == "Bearer new")
    }

    @Test("nil removes every field of the name; a name that is absent leaves the fields as they are")
    func removes() throws {
        var request = try request(["cookie": "a=1", "Accept": "text/plain"])
        request.setHeaderField(nil, named: "Cookie")
        #expect(request.allHTTPHeaderFields == ["Accept": "text/plain"])
        request.setHeaderField(nil, named: "X-Absent")
        #expect(request.allHTTPHeaderFields == ["Accept": "text/plain"])
    }

    @Test("the same fields as setValue(_:forHTTPHeaderField:), compared without case")
    func sameAsSetValue() throws {
        for (name, value) in [("traceparent", "00-a-b-01"), ("Accept", "application/json"), ("X-New", "1")] {
            var ours = try request(["accept": "text/plain", "X-Old": "1"])
            var foundation = ours
            ours.setHeaderField(value, named: name)
            foundation.setValue(value, forHTTPHeaderField: name)
            let lowered = { (fields: [String: String]?) in
                Dictionary(uniqueKeysWithValues: (fields ?? [:]).map { ($0.key.lowercased(), $0.value) })
            }
            #expect(lowered(ours.allHTTPHeaderFields) == lowered(foundation.allHTTPHeaderFields))
        }
    }

    @Test("a value with a control character is kept, and the provider refuses the request for it")
    func controlCharacterRefused() async throws {
        struct Signing: RequestInterceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.setHeaderField("Bearer a\r\nX-Injected: 1", named: "Authorization")
                return request
            }
        }
        let provider = Provider<SampleAPI>(stubClosure: Provider.immediatelyStub, interceptor: Signing())
        let result = await provider.result(for: .user("octocat"))
        guard case .failure(let error) = result,
            case .invalidHeaderValue(let name, _)? = error.underlyingError as? RequestValidationError
        else {
            Issue.record("expected invalidHeaderValue, got \(result)")
            return
        }
        #expect(name == "Authorization")
    }
}
