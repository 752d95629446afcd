import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Header fields in wire order with repeated names, and their conversions to Foundation's
/// dictionaries and responses.
@Suite("Header fields")
struct HeaderFieldsTests {
    private let fields: HeaderFields = [
        "Set-Cookie": "a=1", "Content-Type": "text/plain", "set-cookie": "b=2", "X-Trace": "t",
    ]

    @Test("names match in any case, and repeated fields keep every value in order")
    func lookup() {
        #expect(fields.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(fields["content-type"] == "text/plain")
        #expect(fields["Set-Cookie"] == "a=1, b=2")
        #expect(fields["Missing"] == nil)
        #expect(fields.map(\.name) == ["Set-Cookie", "Content-Type", "set-cookie", "X-Trace"])
    }

    @Test("only ASCII letters match without case: other bytes one bit apart, and different lengths, do not")
    func onlyLettersFold() {
        let odd: HeaderFields = ["X-[a]": "1", "X-@": "2", "X-Long": "3"]
        #expect(odd.values(for: "x-[A]") == ["1"])
        #expect(odd.values(for: "X-{a}").isEmpty)
        #expect(odd.values(for: "X-`").isEmpty)
        #expect(odd.values(for: "X-Lon").isEmpty)
    }

    @Test("appending keeps earlier fields; removing takes every spelling")
    func editing() {
        var edited = fields
        edited.append(name: "x-trace", value: "u")
        #expect(edited.values(for: "X-Trace") == ["t", "u"])
        edited.removeAll(named: "SET-cookie")
        #expect(edited.map(\.name) == ["Content-Type", "X-Trace", "x-trace"])
    }

    @Test("as a Foundation dictionary, one entry per name in its first spelling, values joined")
    func dictionary() {
        #expect(
            fields.dictionary == ["Set-Cookie": "a=1, b=2", "Content-Type": "text/plain", "X-Trace": "t"])
    }

    @Test("the description names the fields and never shows a value")
    func descriptionHidesValues() {
        let secret: HeaderFields = ["Authorization": "Bearer s3cret"]
        #expect("\(secret)" == "HeaderFields(Authorization)")
        #expect(!"\(secret)".contains("s3cret"))
    }

    @Test("an engine's head becomes Foundation's response and keeps its own fields for the caller")
    func engineHead() async throws {
        let url = URL(string: "http://127.0.0.1:9/cookies")!
        let received = TransportResponse(statusCode: 201, headerFields: fields, url: url, data: Data("ok".utf8))

        #expect(received.response?.statusCode == 201)
        #expect(received.response?.value(forHTTPHeaderField: "set-cookie") == "a=1, b=2")
        #expect(received.response?.url == url)
        #expect(received.headerFields == fields)
    }

    @Test("a response from URLSession's head has its fields, sorted by name")
    func foundationHead() throws {
        let response = try #require(
            HTTPURLResponse(
                url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["b-field": "2", "A-Field": "1"]))
        let head = TransportResponse(response: response, data: Data())
        // Foundation may change a name's case (Linux capitalises it); the order is by name.
        #expect(head.headerFields.map { $0.name.lowercased() } == ["a-field", "b-field"])
        #expect(Response(statusCode: 200, data: Data(), response: response).headerFields["a-field"] == "1")
    }

    @Test("the provider's response carries an engine's repeated fields apart")
    func throughProvider() async throws {
        let transport = FieldsTransport(fields: fields)
        let target = TransferTarget(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/", method: .get, task: .requestPlain)

        let response = try await Provider<TransferTarget>(transport: transport).request(target)

        #expect(response.headerFields.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(response.response?.value(forHTTPHeaderField: "X-Trace") == "t")
    }

    @Test("a transport request gives its method and fields to an engine without URLRequest")
    func requestHead() {
        var request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        request.httpMethod = "PATCH"
        request.setValue("b", forHTTPHeaderField: "Beta")
        request.setValue("a", forHTTPHeaderField: "alpha")
        let head = TransportRequest(urlRequest: request)
        #expect(head.method == "PATCH")
        #expect(head.headerFields.map { $0.name.lowercased() } == ["alpha", "beta"])
        #expect(TransportRequest(urlRequest: URLRequest(url: URL(string: "http://127.0.0.1/")!)).method == "GET")
    }
}

/// Answers every request with the given header fields, as an engine without Foundation would.
private struct FieldsTransport: Transport {
    let fields: HeaderFields

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(statusCode: 200, headerFields: fields, url: request.urlRequest.url!, data: Data())
    }
}
