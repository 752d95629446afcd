import Courier
import CourierOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// How a generated request becomes a Courier target.
@Suite("OpenAPIOperation")
struct OpenAPIOperationTests {
    private let server = URL(string: "https://api.example/v1/")!

    @Test("The URL joins the server's path and the rendered path, keeping its encoding and query")
    func url() throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/todos/a%2Fb?tag=x%20y&tag=z")
        let operation = try OpenAPIOperation(request: request, body: nil, serverURL: server, operationID: "getTodo")

        #expect(operation.baseURL.absoluteString == "https://api.example/v1/todos/a%2Fb?tag=x%20y&tag=z")
        #expect(operation.path.isEmpty)
        #expect(operation.renderedPath == "/todos/a%2Fb?tag=x%20y&tag=z")
        #expect(operation.method == .get)
    }

    @Test("A field set twice is joined as HTTP allows; Cookie with a semicolon")
    func headers() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: .accept, value: "text/plain"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/", headerFields: fields)
        let operation = try OpenAPIOperation(request: request, body: nil, serverURL: server, operationID: "x")

        #expect(operation.headers?["accept"] == "application/json, text/plain")
        #expect(operation.headers?["cookie"] == "a=1; b=2")
    }

    @Test("A body the client can iterate again is replayable; a one-shot stream is not")
    func bodies() throws {
        let request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/todos/1/attachment")
        let bytes = try OpenAPIOperation(
            request: request, body: HTTPBody("twice"), serverURL: server, operationID: "uploadAttachment")
        let stream = try OpenAPIOperation(
            request: request, body: HTTPBody(AsyncStream { $0.finish() }, length: .unknown, iterationBehavior: .single),
            serverURL: server, operationID: "uploadAttachment")

        guard case .uploadStream(let replayable) = bytes.task, case .uploadStream(let oneShot) = stream.task else {
            Issue.record("Expected stream bodies")
            return
        }
        #expect(replayable.isReplayable && replayable.length == 5)
        #expect(!oneShot.isReplayable && oneShot.length == nil)
        guard
            case .requestPlain = try OpenAPIOperation(
                request: request, body: nil, serverURL: server, operationID: "x"
            ).task
        else {
            Issue.record("Expected no body")
            return
        }
    }

    @Test("Errors describe themselves without the path's query or a raw line break")
    func errorTexts() throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "//evil.example/x?api_key=secret")
        let error = #expect(throws: OpenAPIBridgeError.self) {
            _ = try OpenAPIOperation(request: request, body: nil, serverURL: server, operationID: "x")
        }
        #expect(error.map { "\($0)" }?.contains("secret") == false)
        #expect(!"\(OpenAPIBridgeError.invalidMethod("GET\r\nX-Injected: 1"))".contains("\n"))
    }
}
