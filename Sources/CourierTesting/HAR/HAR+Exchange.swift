import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HAR entries made from Courier's exchanges, with secrets replaced, and responses made from
/// entries.
extension HAR {
    /// The request as HAR writes it: `redaction` hides header values (`Authorization`, cookies,
    /// API keys), credential query items and body fields, each replaced by `Redaction.mask` (`***`), so
    /// that a replayed request redacted the same way still matches.
    static func request(
        _ request: URLRequest, body: Data?, redaction: Redaction
    ) -> Request {
        let url = request.url.map { redaction.urlString($0.absoluteString) } ?? ""
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
            .map { Field(name: $0.key, value: redaction.headerValue($0.key, $0.value)) }
        let query = URLComponents(string: url)?.percentEncodedQueryItems?.map {
            Field(name: $0.name, value: $0.value ?? "")
        }
        var harRequest = Request(
            method: request.httpMethod ?? "GET", url: url, headers: headers, queryString: query ?? [],
            bodySize: body?.count ?? 0)
        if let body, !body.isEmpty {
            let contentType = request.value(forHTTPHeaderField: "Content-Type")
            // A body cut at the limit is redacted too: its credentials are found member by
            // member, up to where it was cut (`Redaction.body`).
            let (text, base64) = HAR.text(of: redaction.body(body, contentType: contentType))
            harRequest.postData = PostData(mimeType: contentType ?? "", text: text, encoding: base64 ? "base64" : nil)
        }
        return harRequest
    }

    /// The response as HAR writes it, its secrets hidden as in ``request(_:body:redaction:)``;
    /// `body` is what is kept of a body of `size` bytes.
    static func response(
        status: Int, headers fields: HeaderFields, body: Data, size: Int, truncated: Bool, redaction: Redaction
    ) -> Response {
        let contentType = fields["Content-Type"]
        let kept = redaction.body(body, contentType: contentType)
        let (text, base64) = HAR.text(of: kept)
        // `size` is the length of the body `text` holds (redacted), or the whole body's when it
        // was longer than the recorder keeps: a replayer refuses a body shorter than its size.
        let content = Content(
            size: truncated ? size : kept.count, mimeType: contentType ?? "",
            text: kept.isEmpty ? nil : text,
            encoding: base64 && !kept.isEmpty ? "base64" : nil)
        return Response(
            status: status, statusText: HTTPURLResponse.localizedString(forStatusCode: status).capitalized,
            headers: fields.map { Field(name: $0.name, value: redaction.headerValue($0.name, $0.value)) },
            content: content, redirectURL: fields["Location"].map(redaction.urlString) ?? "", bodySize: size)
    }

    /// A failed exchange as HAR writes it: status 0, as browsers record a request that got no
    /// answer, the failure's kind in `statusText`.
    static func failure(_ error: any Error) -> Response {
        let kind = (error as? TransportFailure)?.kind ?? TransportFailure(error).kind
        return Response(status: 0, statusText: kind.rawValue, headers: [], content: Content(size: 0))
    }
}

extension HAR.Entry {
    /// The recorded response's body, its text in its charset (`HAR+Text`).
    var responseBody: Data {
        (try? recordedResponseBody()) ?? HAR.data(of: response.content.text, base64: false)
    }

    /// The recorded request's body, its text in its charset (UTF-8 when that cannot encode it).
    var requestBody: Data {
        let base64 = request.postData?.encoding == "base64"
        let text = request.postData?.text
        return (try? HAR.data(of: text, base64: base64, charset: requestCharset)) ?? HAR.data(of: text, base64: base64)
    }

    /// The recorded response's header fields.
    var responseFields: HeaderFields {
        HeaderFields(response.headers.map { HeaderFields.Field(name: $0.name, value: $0.value) })
    }

    /// The failure a recorded exchange without an answer stands for, or `nil` for an answer.
    var failure: TransportFailure? {
        guard response.status == 0 else { return nil }
        let kind = TransportFailure.Kind(rawValue: response.statusText ?? "") ?? .connectionLost
        return TransportFailure(kind: kind, underlyingError: URLError(.networkConnectionLost))
    }
}
