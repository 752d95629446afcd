import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body as URLSession takes it: in the request, in memory, or from a file.
struct UploadBody {
    enum Source {
        case inline
        case data(Data)
        case file(URL)
        case stream(UploadStream)
    }

    let source: Source
    /// A file Courier wrote for this upload and must delete afterwards.
    let temporaryFile: URL?
    /// The size of a file body, measured once.
    private let fileSize: UInt64

    /// The body as URLSession takes it; a body of asynchronous chunks is collected first
    /// (URLSession reads a stream synchronously, on its own queue, so it cannot await them), and a
    /// body that stalls for `stallLimit` seconds meanwhile fails rather than hang.
    static func prepared(_ body: TransportRequest.Body, stallLimit: TimeInterval) async throws -> UploadBody {
        if case .inline = body { return UploadBody(source: .inline, temporaryFile: nil, fileSize: 0) }
        return try await read(body, stallLimit: stallLimit)
    }

    /// ``prepared(_:stallLimit:)`` for a body that is not in the request, off the caller's actor:
    /// `@concurrent`, because a file is measured and (on Linux, up to
    /// ``URLSessionTransport/linuxKnownLengthUploadLimit``) read into memory, a multipart form is
    /// encoded (to a temporary file past its threshold, its files copied in), and a stream is read
    /// or collected: blocking file I/O and work that grow with the body, which must not run on an
    /// app's main actor when it awaits the request there.
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    private static func read(_ body: TransportRequest.Body, stallLimit: TimeInterval) async throws -> UploadBody {
        guard case .stream(let stream) = body, stream.isAsynchronous else { return try UploadBody(body) }
        let collected = try await stream.collected(
            memoryLimit: URLSessionTransport.linuxKnownLengthUploadLimit, stallLimit: stallLimit)
        switch collected {
        case .data(let data): return UploadBody(source: .data(data), temporaryFile: nil, fileSize: 0)
        case .temporaryFile(let url):
            do {
                let size = try MultipartFormData.size(of: url)
                return UploadBody(source: try Self.fileSource(url, size: size), temporaryFile: url, fileSize: size)
            } catch {
                try? FileManager.default.removeItem(at: url)
                throw error
            }
        }
    }

    private init(source: Source, temporaryFile: URL?, fileSize: UInt64) {
        (self.source, self.temporaryFile, self.fileSize) = (source, temporaryFile, fileSize)
    }

    init(_ body: TransportRequest.Body) throws {
        switch body {
        case .inline:
            (source, temporaryFile, fileSize) = (.inline, nil, 0)
        case .file(let url):
            // Measured up front for a clear error rather than URLError -1100.
            let size = try MultipartFormData.size(of: url)
            (source, temporaryFile, fileSize) = (try Self.fileSource(url, size: size), nil, size)
        case .multipart(let form):
            switch try form.encodedForUpload() {
            case .data(let data): (source, temporaryFile, fileSize) = (.data(data), nil, 0)
            case .temporaryFile(let url):
                let size = try MultipartFormData.size(of: url)
                (source, temporaryFile, fileSize) = (try Self.fileSource(url, size: size), url, size)
            }
        case .stream(let stream):
            (source, temporaryFile, fileSize) = (try Self.streamSource(stream), nil, stream.length ?? 0)
        }
    }

    /// A stream body as this platform sends it: on Linux, one of known length up to
    /// ``URLSessionTransport/linuxKnownLengthUploadLimit`` is read into memory first, to be sent
    /// with its `Content-Length` (see ``fileSource(_:size:)``).
    private static func streamSource(_ stream: UploadStream) throws -> Source {
        #if canImport(FoundationNetworking)
            guard let length = stream.length, length <= URLSessionTransport.linuxKnownLengthUploadLimit else {
                return .stream(stream)
            }
            let data = try read(stream.makeStream(), limit: Int(length) + 1)
            guard data.count == Int(length) else {
                throw TransferError.streamLengthMismatch(part: "body", expected: length, actual: UInt64(data.count))
            }
            return .data(data)
        #else
            return .stream(stream)
        #endif
    }

    /// Up to `limit` bytes of `stream`.
    private static func read(_ stream: InputStream, limit: Int) throws -> Data {
        var data = Data()
        guard FileStreams.read(stream, chunkSize: 64 << 10, limit: limit, { data.append($0) }) else {
            throw TransferError.streamFailed(part: "body")
        }
        return data
    }

    /// A file body as this platform sends it with a `Content-Length`.
    ///
    /// On Linux URLSession sends a streamed body chunked, without a length, and a `Content-Length`
    /// beside it goes out next to `Transfer-Encoding: chunked`; its file uploads cannot be used
    /// (see ``task(for:in:)``). So a file up to ``URLSessionTransport/linuxKnownLengthUploadLimit``
    /// is read and sent from memory, with its length; a larger one is streamed chunked.
    private static func fileSource(_ url: URL, size: UInt64) throws -> Source {
        #if canImport(FoundationNetworking)
            guard size <= URLSessionTransport.linuxKnownLengthUploadLimit else { return .file(url) }
            do {
                return .data(try Data(contentsOf: url))
            } catch {
                throw TransferError.fileNotReadable(url)
            }
        #else
            return .file(url)
        #endif
    }

    /// Where URLSession gets a body it reads as a stream: a file on Linux, or an upload stream.
    var streamed: StreamedBody? {
        switch source {
        case .stream(let stream):
            return StreamedBody(size: stream.length.map(Int64.init)) { try stream.makeStream() }
        case .file(let url):
            #if canImport(FoundationNetworking)
                return StreamedBody(size: Int64(fileSize)) {
                    guard let stream = InputStream(url: url) else { throw TransferError.fileNotReadable(url) }
                    return stream
                }
            #else
                return nil
            #endif
        case .inline, .data: return nil
        }
    }

    /// Whether the body is sent from memory (or there is none), so that nothing is read while
    /// the task runs.
    var isInMemory: Bool {
        switch source {
        case .inline, .data: true
        case .file, .stream: false
        }
    }

    /// The task for a body in memory, ended by `completion` instead of the session delegate.
    func task(
        for request: URLRequest, in session: URLSession,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionTask {
        switch source {
        case .data(let data): return session.uploadTask(with: request, from: data, completionHandler: completion)
        default: return session.dataTask(with: request, completionHandler: completion)
        }
    }

    func task(for request: URLRequest, in session: URLSession) -> URLSessionTask {
        switch source {
        case .inline: return session.dataTask(with: request)
        case .data(let data): return session.uploadTask(with: request, from: data)
        case .stream(let stream):
            var request = request
            #if !canImport(FoundationNetworking)
                // Apple platforms send a streamed body with the length it is given; Linux would
                // send it next to `Transfer-Encoding: chunked` (its known lengths are read first).
                if let length = stream.length { request.setValue("\(length)", forHTTPHeaderField: "Content-Length") }
            #else
                _ = stream
            #endif
            request.httpBodyStream = nil
            return session.uploadTask(withStreamedRequest: request)
        case .file(let url):
            #if canImport(FoundationNetworking)
                // On Linux, `uploadTask(fromFile:)` reads the file asynchronously and resumes
                // libcurl when a chunk is ready; if the task was cancelled meanwhile, that resume
                // stops the process (a `try!` on libcurl error 43, seen in the cancellation storm
                // test). A stream is read synchronously and has no such window, so files are
                // streamed, with chunked transfer encoding (a Content-Length next to a stream makes
                // Linux send both headers).
                _ = url
                return session.uploadTask(withStreamedRequest: request)
            #else
                return session.uploadTask(with: request, fromFile: url)
            #endif
        }
    }
}
