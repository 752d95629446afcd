import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body as AsyncHTTPClient takes it, read from its source as it is sent (a file or a
/// form is never loaded whole, nor copied), with upload progress.
struct Upload: Sendable {
    /// The body, or `nil` for none.
    let body: HTTPClientRequest.Body?

    init(_ request: TransportRequest) throws {
        let progress = request.progress
        switch request.body {
        case .inline:
            let data = request.urlRequest.httpBody ?? Data()
            body = data.isEmpty ? nil : Self.bytes(data, progress: progress)
        case .file(let url):
            body = try Self.file(url, progress: progress)
        case .multipart(let form):
            // Streamed as it is encoded: no copy of the form in memory or in a temporary file.
            let stream = try form.uploadStream()
            let length = Int64(stream.length ?? 0)
            let chunks = UploadChunks(try stream.chunks(), total: length, progress: progress)
            body = .stream(chunks, length: .known(length))
        case .stream(let stream):
            let length: HTTPClientRequest.Body.Length = stream.length.map { .known(Int64($0)) } ?? .unknown
            let chunks = UploadChunks(try stream.chunks(), total: stream.length.map(Int64.init), progress: progress)
            body = .stream(chunks, length: length)
        }
    }

    /// A body in memory: handed over whole, or in 64 KiB chunks when progress is reported.
    private static func bytes(_ data: Data, progress: (@Sendable (TransferProgress) -> Void)?) -> HTTPClientRequest.Body
    {
        guard progress != nil else { return .bytes(data) }
        let stream = UploadStream(length: UInt64(data.count)) { InputStream(data: data) }
        // A replayable stream made from memory cannot fail to open.
        guard let chunks = try? stream.chunks() else { return .bytes(data) }
        return .stream(
            UploadChunks(chunks, total: Int64(data.count), progress: progress), length: .known(Int64(data.count)))
    }

    /// A file, read as it is sent, with its length.
    private static func file(_ url: URL, progress: (@Sendable (TransferProgress) -> Void)?) throws
        -> HTTPClientRequest.Body
    {
        let size: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular, let bytes = attributes[.size] as? NSNumber
            else {
                throw TransferError.fileNotReadable(url)
            }
            size = bytes.int64Value
        } catch {
            throw TransferError.fileNotReadable(url)
        }
        let stream = UploadStream(length: UInt64(size)) {
            guard let stream = InputStream(url: url) else { throw TransferError.fileNotReadable(url) }
            return stream
        }
        return .stream(UploadChunks(try stream.chunks(), total: size, progress: progress), length: .known(size))
    }
}

/// A body's chunks as AsyncHTTPClient takes them, reporting upload progress as they go.
struct UploadChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let chunks: UploadStream.Chunks
    let total: Int64?
    let progress: (@Sendable (TransferProgress) -> Void)?

    init(_ chunks: UploadStream.Chunks, total: Int64?, progress: (@Sendable (TransferProgress) -> Void)?) {
        (self.chunks, self.total, self.progress) = (chunks, total, progress)
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: chunks.makeAsyncIterator(), total: total, progress: progress)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: UploadStream.Chunks.AsyncIterator
        let total: Int64?
        let progress: (@Sendable (TransferProgress) -> Void)?
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            sent += Int64(chunk.count)
            progress?(TransferProgress(direction: .upload, completedBytes: sent, expectedBytes: total))
            return ByteBuffer(data: chunk)
        }
    }
}
