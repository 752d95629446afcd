import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Courier's answers as the generated client takes them: a swift-http-types response and an
/// OpenAPI body.
enum OpenAPIAnswer {
    /// An accepted answer, its body streamed to the generated client as it reads it.
    static func accepted(_ streamed: StreamedResponse, method: HTTPRequest.Method) -> (HTTPResponse, HTTPBody?) {
        let head = response(statusCode: streamed.statusCode, headerFields: streamed.headerFields)
        guard hasBody(statusCode: streamed.statusCode, method: method) else { return (head, nil) }
        // `Content-Length` counts the bytes on the wire: an engine that decodes a `Content-Encoding`
        // hands over other bytes, so the length is then unknown.
        let encoded = streamed.headerFields["Content-Encoding"].map { $0.lowercased() != "identity" } ?? false
        let length =
            encoded ? nil : streamed.headerFields["Content-Length"].flatMap { Int64($0) }.map(HTTPBody.Length.known)
        return (head, HTTPBody(streamed.body, length: length ?? .unknown, iterationBehavior: .single))
    }

    /// An answer the pipeline rejected and did not retry, which the generated client handles as
    /// any documented or undocumented status: the body Courier kept of it (up to 64 KiB for a
    /// streamed request).
    static func rejected(_ answer: Response, method: HTTPRequest.Method) -> (HTTPResponse, HTTPBody?) {
        let head = response(statusCode: answer.statusCode, headerFields: answer.headerFields)
        guard hasBody(statusCode: answer.statusCode, method: method) else { return (head, nil) }
        return (head, HTTPBody(answer.data))
    }

    private static func response(statusCode: Int, headerFields: HeaderFields) -> HTTPResponse {
        HTTPResponse(status: HTTPResponse.Status(code: statusCode), headerFields: headerFields.httpFields)
    }

    /// Whether an answer can carry a body: not to `HEAD`, not 1xx, 204 or 304.
    private static func hasBody(statusCode: Int, method: HTTPRequest.Method) -> Bool {
        method != .head && statusCode >= 200 && statusCode != 204 && statusCode != 304
    }
}
