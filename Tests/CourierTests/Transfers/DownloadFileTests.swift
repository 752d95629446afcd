import Courier
import Foundation
import Testing

/// `DownloadFile`, the temporary file every engine writes downloads to: chunks of any size land in
/// order, whether they fit the batch, overflow it, or are larger than it.
@Suite("Download files")
struct DownloadFileTests {
    private static func bytes(_ count: Int, seed: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 31) })
    }

    @Test(
        "chunks of every size around the batch arrive whole and in order",
        arguments: [
            [1, 2, 3],
            [DownloadFile.batchSize - 1, 1, 1],
            [DownloadFile.batchSize - 1, 2, DownloadFile.batchSize],
            [DownloadFile.batchSize, DownloadFile.batchSize + 1, 7],
            [16_384, 1_000_000, 16_384, 3 * DownloadFile.batchSize + 5, 0, 16_383],
        ])
    func chunksInOrder(sizes: [Int]) throws {
        let file = try DownloadFile()
        defer { file.delete() }
        var expected = Data()
        for (index, size) in sizes.enumerated() {
            let chunk = Self.bytes(size, seed: index)
            expected.append(chunk)
            #expect(file.write(chunk))
        }
        #expect(file.flush())
        file.close()

        #expect(try Data(contentsOf: file.url) == expected)
    }

    @Test("a closed file refuses writes, and delete removes it")
    func closedFile() throws {
        let file = try DownloadFile()
        #expect(file.write(Self.bytes(10, seed: 0)))
        file.close()

        #expect(!file.write(Self.bytes(10, seed: 1)))
        #expect(!file.flush())
        file.delete()
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
    }
}
