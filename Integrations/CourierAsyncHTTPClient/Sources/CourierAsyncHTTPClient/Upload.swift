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
    /// Where a body's bytes come from.
    enum Source: Sendable {
        /// No body.
        case none
        /// Bytes in memory, handed over whole.
        case bytes(Data)
        /// Chunks read as they are sent, and their length when it is known.
        case chunks(UploadChunks, length: Int64?)
    }

    /// The body's bytes.
    let source: Source

    /// The body as AsyncHTTPClient takes it, or `nil` for none.
    var body: HTTPClientRequest.Body? {
        switch source {
        case .none: nil
        case .bytes(let data): .bytes(data)
        case .chunks(let chunks, let length): .stream(chunks, length: length.map { .known($0) } ?? .unknown)
        }
    }

    init(_ request: TransportRequest) throws {
        let progress = request.progress
        switch request.body {
        case .inline:
            let data = request.urlRequest.httpBody ?? Data()
            source = data.isEmpty ? .none : Self.bytes(data, progress: progress)
        case .file(let url):
            source = try Self.file(url, progress: progress)
        case .multipart(let form):
            // Streamed as it is encoded: no copy of the form in memory or in a temporary file.
            let stream = try form.uploadStream()
            let length = Int64(stream.length ?? 0)
            source = .chunks(UploadChunks(try stream.chunks(), total: length, progress: progress), length: length)
        case .stream(let stream):
            let length = stream.length.map(Int64.init)
            source = .chunks(UploadChunks(try stream.chunks(), total: length, progress: progress), length: length)
        }
    }

    /// A body in memory: handed over whole, or in 64 KiB chunks when progress is reported.
    private static func bytes(_ data: Data, progress: (@Sendable (TransferProgress) -> Void)?) -> Source {
        guard progress != nil else { return .bytes(data) }
        let stream = UploadStream(length: UInt64(data.count)) { InputStream(data: data) }
        // A replayable stream made from memory cannot fail to open.
        guard let chunks = try? stream.chunks() else { return .bytes(data) }
        return .chunks(UploadChunks(chunks, total: Int64(data.count), progress: progress), length: Int64(data.count))
    }

    /// A file, read as it is sent, with its length.
    private static func file(_ url: URL, progress: (@Sendable (TransferProgress) -> Void)?) throws -> Source {
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
        return .chunks(UploadChunks(try stream.chunks(), total: size, progress: progress), length: size)
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
