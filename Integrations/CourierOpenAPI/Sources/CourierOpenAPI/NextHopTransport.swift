import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport of a ``CourierMiddleware``'s provider: it hands each attempt, as adapted by the
/// interceptor, to the rest of the OpenAPI middleware stack (``NextHop``), and its answer back to
/// the pipeline. Timeouts are left to the provider, which enforces them around any transport.
struct NextHopTransport: Transport {
    /// Sends `request` through the next middleware: the whole body, or, for a streamed
    /// request, the body as the next transport hands it over.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (url, response, body) = try await exchange(request)
        let fields = HeaderFields(response.headerFields)
        if request.delivery == .stream {
            let transportBody: TransportBody
            if let body {
                let reader = OpenAPIBodyReader(body)
                transportBody = TransportBody(pulling: { try await reader.next() }, onTermination: {})
            } else {
                transportBody = TransportBody(Data())
            }
            return TransportResponse(
                statusCode: response.status.code, headerFields: fields, url: url, stream: transportBody)
        }
        var data = Data()
        if let body {
            for try await chunk in body { data.append(contentsOf: chunk) }
        }
        return TransportResponse(statusCode: response.status.code, headerFields: fields, url: url, data: data)
    }

    private func exchange(
        _ request: TransportRequest
    ) async throws -> (URL, HTTPResponse, HTTPBody?) {
        guard let hop = NextHop.current else { throw OpenAPIBridgeError.notInsideMiddleware }
        let url = request.urlRequest.url ?? hop.baseURL
        let (head, baseURL) = try Self.head(of: request, url: url, baseURL: hop.baseURL)
        let body = try Self.body(of: request)
        do {
            let (response, responseBody) = try await hop.send(head, body: body, baseURL: baseURL)
            return (url, response, responseBody)
        } catch let error as ClientError {
            throw error.underlyingError
        }
    }

    /// The swift-http-types request of an attempt, and the base URL to send it with: the call's
    /// own when the attempt's URL is under it, else the attempt's origin.
    static func head(of request: TransportRequest, url: URL, baseURL: URL) throws -> (HTTPRequest, URL) {
        let absolute = url.absoluteString
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let path: String
        let sentBase: URL
        if absolute.hasPrefix(base), absolute.dropFirst(base.count).first.map({ "/?#".contains($0) }) ?? true {
            path = String(absolute.dropFirst(base.count))
            sentBase = baseURL
        } else {
            guard var origin = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                throw OpenAPIBridgeError.invalidRequestURL(serverURL: baseURL, path: absolute)
            }
            let query = origin.percentEncodedQuery.map { "?" + $0 } ?? ""
            path = origin.percentEncodedPath + query
            origin.percentEncodedPath = ""
            origin.percentEncodedQuery = nil
            guard let originURL = origin.url else {
                throw OpenAPIBridgeError.invalidRequestURL(serverURL: baseURL, path: absolute)
            }
            sentBase = originURL
        }
        guard let method = HTTPRequest.Method(request.method) else {
            throw OpenAPIBridgeError.invalidMethod(request.method)
        }
        let head = HTTPRequest(
            method: method, scheme: nil, authority: nil, path: path.isEmpty ? "/" : path,
            headerFields: request.headerFields.httpFields)
        return (head, sentBase)
    }

    /// The OpenAPI body of an attempt: a fresh stream each time it is sent (a one-shot stream
    /// sent again fails in Courier with ``Courier/TransferError/streamNotReplayable``).
    static func body(of request: TransportRequest) throws -> HTTPBody? {
        switch request.body {
        case .inline:
            return request.urlRequest.httpBody.map { HTTPBody($0) }
        case .stream(let stream):
            return HTTPBody(try stream.chunks(), length: length(stream.length), iterationBehavior: .single)
        case .multipart(let form):
            let stream = try form.uploadStream()
            return HTTPBody(try stream.chunks(), length: length(stream.length), iterationBehavior: .single)
        case .file(let url):
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            guard let size = (attributes?[.size] as? NSNumber)?.uint64Value else {
                throw TransferError.fileNotReadable(url)
            }
            let stream = UploadStream(length: size) {
                guard let input = InputStream(url: url) else { throw TransferError.fileNotReadable(url) }
                return input
            }
            return HTTPBody(try stream.chunks(), length: length(size), iterationBehavior: .single)
        }
    }

    private static func length(_ bytes: UInt64?) -> HTTPBody.Length {
        bytes.map { .known(Int64(clamping: $0)) } ?? .unknown
    }
}
