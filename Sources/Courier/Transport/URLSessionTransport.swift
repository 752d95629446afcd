import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``Transport``: one long-lived `URLSession` driven by one session-level delegate.
///
/// Built on what works the same on Linux and Apple platforms: data tasks whose callbacks a single
/// session delegate routes by task (per-task delegates lose callbacks on Linux), the body buffered
/// once as it arrives, and cancellation of the Swift task cancelling the `URLSessionTask`.
/// Every status code is returned as a response.
///
/// A 401 carrying a `WWW-Authenticate` challenge is returned as a response rather than answered
/// with stored credentials (on Linux, URLSession would otherwise wait forever); put credentials in
/// headers with an adapter or a plugin.
///
/// The session is invalidated when the transport is released; in-flight requests keep the
/// transport alive, so it is never used after invalidation.
public final class URLSessionTransport: Transport {
    /// The session that sends the requests.
    public let session: URLSession
    private let router: SessionDelegate

    /// Creates a transport with its own session.
    /// - Parameter configuration: The session configuration; ``defaultConfiguration`` by default.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration) {
        let router = SessionDelegate()
        let queue = OperationQueue()
        queue.name = "Courier.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// An ephemeral configuration: cookies and cache in memory, nothing written to the home
    /// folder (on Linux the default configuration writes cookie and cache files there).
    public static var defaultConfiguration: URLSessionConfiguration {
        URLSessionConfiguration.ephemeral
    }

    /// Sends `request` and returns its response and whole body (or the file holding it).
    ///
    /// A request body from a file or an encoded multipart form goes through an upload task,
    /// streamed from disk; a multipart body above its memory threshold is written to a temporary
    /// file first, deleted when the task ends. A download is written, as it arrives, to a
    /// temporary file Courier creates and deletes on failure.
    /// - Parameter request: What to send.
    /// - Returns: The response and body, whatever the status code.
    /// - Throws: The `URLError` of a failed transfer (`URLError(.cancelled)` when the Swift task
    ///   is cancelled), or a ``TransferError``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let sink = request.writesToFile ? try DownloadFile() : nil
        let upload: UploadBody
        do {
            upload = try UploadBody(request.body)
        } catch {
            sink?.delete()
            throw error
        }
        let exchange = Exchange(progress: request.progress, sink: sink, temporaryBody: upload.temporaryFile)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(continuation)
                let task = upload.task(for: request.urlRequest, in: session)
                router.register(exchange, for: task)
                task.resume()
                exchange.attach(task)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}

/// A request body as URLSession takes it: in the request, in memory, or in a file.
private struct UploadBody {
    enum Source {
        case inline
        case data(Data)
        case file(URL)
    }

    let source: Source
    /// A file Courier wrote for this upload and must delete afterwards.
    let temporaryFile: URL?

    init(_ body: TransportRequest.Body) throws {
        switch body {
        case .inline:
            (source, temporaryFile) = (.inline, nil)
        case .file(let url):
            _ = try MultipartFormData.size(of: url)  // a clear error rather than URLError -1100
            (source, temporaryFile) = (.file(url), nil)
        case .multipart(let form):
            switch try form.encodedForUpload() {
            case .data(let data): (source, temporaryFile) = (.data(data), nil)
            case .temporaryFile(let url): (source, temporaryFile) = (.file(url), url)
            }
        }
    }

    func task(for request: URLRequest, in session: URLSession) -> URLSessionTask {
        switch source {
        case .inline: session.dataTask(with: request)
        case .data(let data): session.uploadTask(with: request, from: data)
        case .file(let url): session.uploadTask(with: request, fromFile: url)
        }
    }
}
