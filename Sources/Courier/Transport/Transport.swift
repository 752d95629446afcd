import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one attempt's request and returns what came back: the last stage of the pipeline.
///
/// The default is ``URLSessionTransport``. A stubbed target uses Courier's stub transport
/// instead, and CourierTesting's `ScriptedTransport` plays back scripted responses; write your
/// own to put another HTTP client under Courier:
/// ```swift
/// struct LoggingTransport: Transport {
///     let base: any Transport
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         print("→", request.urlRequest.url!)
///         return try await base.send(request)
///     }
/// }
/// ```
/// A transport returns every HTTP status code as a response; it throws only when no response was
/// received. It should stop promptly when the calling Swift task is cancelled. An engine that can
/// follow redirects should not: wrap it in ``RedirectingTransport``, so that Courier's redirect
/// rules hold. CourierTesting's `TransportConformance` checks all of this against a local server.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response with its whole body.
    /// - Parameter request: What to send.
    /// - Returns: The HTTP response and its body.
    /// - Throws: A transport error (usually a `URLError`) when no response was received.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// Sends `request` and returns the response as soon as its head arrives, with a body that
    /// arrives as it is received. The default sends the request with ``send(_:)`` and returns the
    /// whole body as one chunk: a transport that can stream implements this too.
    /// - Parameter request: What to send (`writesToFile` does not apply).
    /// - Returns: The response and its body.
    /// - Throws: A transport error when no response head was received.
    func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse
}

extension Transport {
    /// Sends the request with ``send(_:)``; the body is the whole body, as one chunk.
    public func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse {
        var whole = request
        whole.writesToFile = false
        let response = try await send(whole)
        return StreamedTransportResponse(
            statusCode: response.statusCode, response: response.response, body: TransportBody(response.data))
    }
}

/// What a ``Transport`` received when streaming: the head, and a body still arriving.
public struct StreamedTransportResponse: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The HTTP response with its headers, when the transport has one.
    public let response: HTTPURLResponse?
    /// The body, chunk by chunk. Stop reading it (or drop it) to cancel the rest of the transfer.
    public let body: TransportBody

    /// Creates a streamed response.
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - response: The HTTP response, if any.
    ///   - body: The body.
    public init(statusCode: Int, response: HTTPURLResponse?, body: TransportBody) {
        self.statusCode = statusCode
        self.response = response
        self.body = body
    }
}

/// What a ``Transport`` is asked to send.
public struct TransportRequest: Sendable {
    /// Where the request body comes from.
    public enum Body: Sendable {
        /// The request's own `httpBody`, if any.
        case inline
        /// The file at this URL, streamed from disk.
        case file(URL)
        /// A multipart form, encoded when sent (large bodies through a temporary file).
        case multipart(MultipartFormData)
        /// A stream, read as the body is sent.
        case stream(UploadStream)
    }

    /// The request, as adapted by the interceptor.
    public var urlRequest: URLRequest
    /// Where the body comes from.
    public var body: Body
    /// Whether the response body is written to a temporary file (downloads) rather than memory.
    public var writesToFile: Bool
    /// Receives byte counts as the body is sent and the response received; called on any thread.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// The longest the exchange may take in all, from sending to the last byte, or `nil` for the
    /// transport's own idle timeout. A transport fails with ``TransportFailure/Kind/timedOut``
    /// when it runs out.
    public var timeout: TimeInterval?

    /// Creates a transport request.
    /// - Parameters:
    ///   - urlRequest: The request to send.
    ///   - body: Where the body comes from; the request's own by default.
    ///   - writesToFile: Whether the response body goes to a temporary file; `false` by default.
    ///   - progress: Receives byte counts; none by default.
    ///   - timeout: The longest the exchange may take in all; none by default.
    public init(
        urlRequest: URLRequest, body: Body = .inline, writesToFile: Bool = false,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, timeout: TimeInterval? = nil
    ) {
        self.urlRequest = urlRequest
        self.body = body
        self.writesToFile = writesToFile
        self.progress = progress
        self.timeout = timeout
    }
}

extension TransportRequest.Body {
    /// The size of the body in bytes, taking `request`'s own `httpBody` for ``inline``; 0 when a
    /// file cannot be read.
    func size(inline request: URLRequest) -> Int64 {
        switch self {
        case .inline: Int64(request.httpBody?.count ?? 0)
        case .file(let url): Int64((try? MultipartFormData.size(of: url)) ?? 0)
        case .multipart(let form): Int64((try? form.contentLength()) ?? 0)
        case .stream(let stream): Int64(stream.length ?? 0)
        }
    }
}

/// What a ``Transport`` received.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The HTTP response with its headers, when the transport has one.
    public let response: HTTPURLResponse?
    /// The whole body (empty when it was written to ``fileURL``).
    public let data: Data
    /// The temporary file holding the body of a request that ``TransportRequest/writesToFile``.
    /// The provider moves it to its destination or deletes it.
    public let fileURL: URL?

    /// Creates a transport response from an HTTP response.
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - data: The body.
    ///   - fileURL: The temporary file holding the body, for a download.
    public init(response: HTTPURLResponse, data: Data, fileURL: URL? = nil) {
        self.statusCode = response.statusCode
        self.response = response
        self.data = data
        self.fileURL = fileURL
    }

    /// Creates a transport response with a status code and no headers (a stub's
    /// `.networkResponse`, for example).
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - data: The body.
    ///   - fileURL: The temporary file holding the body, for a download.
    public init(statusCode: Int, data: Data, fileURL: URL? = nil) {
        self.statusCode = statusCode
        self.response = nil
        self.data = data
        self.fileURL = fileURL
    }
}
