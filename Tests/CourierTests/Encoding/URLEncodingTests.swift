import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLEncoding")
struct URLEncodingTests {
    private func request(_ method: HTTPMethod = .get, url: String = "https://example.com/path") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method.rawValue
        return request
    }

    @Test("keys are sorted and values escaped per RFC 3986")
    func sortedAndEscaped() throws {
        let encoded = try URLEncoding.default.encode(
            request(), with: ["b": "x y&z=1", "a": "é/?", "c": "!*'();:@+$,#[]"])
        #expect(encoded.url?.query == "a=%C3%A9/?&b=x%20y%26z%3D1&c=%21%2A%27%28%29%3B%3A%40%2B%24%2C%23%5B%5D")
    }

    @Test(
        "method-dependent destination",
        arguments: [
            (HTTPMethod.get, true), (.head, true), (.delete, true), (.post, false), (.put, false), (.patch, false),
        ])
    func methodDependent(method: HTTPMethod, inURL: Bool) throws {
        let encoded = try URLEncoding.default.encode(request(method), with: ["q": "1"])
        #expect((encoded.url?.query == "q=1") == inURL)
        #expect((encoded.httpBody == Data("q=1".utf8)) == !inURL)
    }

    @Test("query string destination appends to an existing query")
    func appendsToQuery() throws {
        let encoded = try URLEncoding.queryString.encode(
            request(.post, url: "https://example.com/p?x=1"), with: ["y": 2])
        #expect(encoded.url?.absoluteString == "https://example.com/p?x=1&y=2")
        #expect(encoded.httpBody == nil)
    }

    @Test("HTTP body destination sets the form Content-Type only when absent")
    func bodyContentType() throws {
        let plain = try URLEncoding.httpBody.encode(request(.get), with: ["a": 1])
        #expect(plain.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(plain.httpBody == Data("a=1".utf8))

        var custom = request(.post)
        custom.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let kept = try URLEncoding.httpBody.encode(custom, with: ["a": 1])
        #expect(kept.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test("array encodings")
    func arrays() throws {
        let parameters: Parameters = ["tags": ["a", "b"]]
        #expect(try URLEncoding(arrayEncoding: .brackets).query(parameters) == "tags%5B%5D=a&tags%5B%5D=b")
        #expect(try URLEncoding(arrayEncoding: .noBrackets).query(parameters) == "tags=a&tags=b")
        #expect(try URLEncoding(arrayEncoding: .indexInBrackets).query(parameters) == "tags%5B0%5D=a&tags%5B1%5D=b")
        #expect(
            try URLEncoding(arrayEncoding: .custom { key, index in "\(key).\(index)" }).query(parameters)
                == "tags.0=a&tags.1=b")
    }

    @Test("bool encodings")
    func bools() throws {
        #expect(try URLEncoding(boolEncoding: .numeric).query(["on": true, "off": false]) == "off=0&on=1")
        #expect(try URLEncoding(boolEncoding: .literal).query(["on": true, "off": false]) == "off=false&on=true")
    }

    @Test("nested dictionaries, numbers and nulls")
    func nested() throws {
        let user: Parameters = ["name": "Ann", "age": 30, "address": ["city": "Oslo"]]
        let parameters: Parameters = ["user": user, "ratio": 1.5, "none": NSNull()]
        #expect(
            try URLEncoding.default.query(parameters)
                == "none=&ratio=1.5&user%5Baddress%5D%5Bcity%5D=Oslo&user%5Bage%5D=30&user%5Bname%5D=Ann")
    }

    @Test("empty parameters leave the request untouched")
    func empty() throws {
        let original = request(.post)
        let encoded = try URLEncoding.default.encode(original, with: [:])
        #expect(encoded == original)
    }

    @Test("an unsupported value is a typed error")
    func unsupportedValue() {
        #expect(throws: ParameterEncodingError.unsupportedValue(key: "when", type: "Date")) {
            try URLEncoding.default.query(["when": Date(timeIntervalSince1970: 0)])
        }
    }
}

@Suite("JSONEncoding")
struct JSONEncodingTests {
    @Test("writes sorted JSON and sets application/json")
    func writesJSON() throws {
        var request = URLRequest(url: URL(string: "https://example.com")!)
        request.httpMethod = "POST"
        let encoded = try JSONEncoding.default.encode(request, with: ["b": [1, 2], "a": ["x": true]])
        #expect(String(decoding: encoded.httpBody ?? Data(), as: UTF8.self) == #"{"a":{"x":true},"b":[1,2]}"#)
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("keeps a Content-Type that is set")
    func keepsContentType() throws {
        var request = URLRequest(url: URL(string: "https://example.com")!)
        request.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
        let encoded = try JSONEncoding.default.encode(request, with: ["a": 1])
        #expect(encoded.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    }

    @Test("a value JSON cannot hold is a typed error, not a crash")
    func invalidObject() {
        let request = URLRequest(url: URL(string: "https://example.com")!)
        #expect(throws: ParameterEncodingError.self) {
            try JSONEncoding.default.encode(request, with: ["when": Date()])
        }
    }
}
