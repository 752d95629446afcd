import Courier
import Foundation
import Testing

/// A multipart form read as an upload stream: the same bytes as its encoding, its length, and
/// the errors of a bad part.
@Suite("MultipartFormData upload stream")
struct MultipartUploadStreamTests {
    private func collect(_ stream: UploadStream) async throws -> Data {
        var data = Data()
        for try await chunk in try stream.chunks() { data.append(chunk) }
        return data
    }

    @Test("data, file and stream parts stream as the exact encoding, with its length, again and again")
    func sameBytesAsEncoding() async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, _) = try Scratch.file(in: folder, name: "big.bin", size: 700_000)
        let piped = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 3) })
        var form = MultipartFormData(boundary: "b0undary")
        form.append(Data("Ann".utf8), name: "name")
        form.append(fileURL: file, name: "file")
        form.append(length: UInt64(piped.count), name: "piped", fileName: "p.bin") { InputStream(data: piped) }

        let stream = try form.uploadStream()

        let expected = try form.encoded()
        #expect(stream.length == UInt64(expected.count))
        #expect(try await collect(stream) == expected)
        #expect(try await collect(stream) == expected)
    }

    @Test("a stream part longer or shorter than declared fails with both sizes")
    func lengthMismatch() async throws {
        for (declared, actual) in [(UInt64(10), 20), (UInt64(30), 20)] {
            var form = MultipartFormData()
            form.append(length: declared, name: "part") { InputStream(data: Data(count: actual)) }
            await #expect(throws: TransferError.self) { _ = try await collect(try form.uploadStream()) }
        }
    }

    @Test("a missing file part is refused before anything is read")
    func missingFile() {
        var form = MultipartFormData()
        form.append(fileURL: URL(fileURLWithPath: "/nonexistent/file.bin"), name: "file")
        #expect(throws: TransferError.fileNotReadable(URL(fileURLWithPath: "/nonexistent/file.bin"))) {
            _ = try form.uploadStream()
        }
    }
}
