import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite {
    /// Uploads from files and large forms go out with their length, and their progress knows
    /// its total. Nested in the temporary-files suite: large forms pass through Courier's files.
    @Suite("Upload lengths")
    struct UploadLengthTests {
        private static func upload(_ task: HTTPTask, to server: LoopbackServer) async throws -> ProgressLog {
            let log = ProgressLog()
            let target = TransferTarget(baseURL: server.baseURL, path: "/upload", method: .put, task: task)
            for try await report in Provider<TransferTarget>().requestWithProgress(target) {
                log.add(report)
            }
            return log
        }

        @Test("a file upload carries its Content-Length, and every progress report its total")
        func fileUpload() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (file, data) = try Scratch.file(in: folder, name: "photo.jpg", size: 3 << 20)
            let server = try LoopbackServer { _ in ServerReply(status: 200) }

            let log = try await Self.upload(.uploadFile(file), to: server)

            let request = try #require(server.requests.first)
            #expect(request.header("Content-Length") == "\(data.count)")
            #expect(request.header("Transfer-Encoding") == nil)
            #expect(request.body == data)
            #expect(log.isMonotonicEndingAtOne)
            #expect(log.reports.allSatisfy { $0.expectedBytes == Int64(data.count) }, "\(log.reports)")
        }

        @Test("a multipart form encoded to a temporary file carries its Content-Length")
        func largeForm() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (file, data) = try Scratch.file(in: folder, name: "scan.pdf", size: 12 << 20)
            var form = MultipartFormData(boundary: "courier-length-boundary")
            form.append(fileURL: file, name: "scan")
            let server = try LoopbackServer { _ in ServerReply(status: 200) }

            let log = try await Self.upload(.uploadMultipartFormData(form), to: server)

            let request = try #require(server.requests.first)
            #expect(request.header("Content-Length") == "\(request.body.count)")
            #expect(request.header("Transfer-Encoding") == nil)
            let parts = try #require(MultipartParser.parse(request.body, contentType: request.header("Content-Type")))
            #expect(parts.map(\.body) == [data])
            #expect(log.reports.dropLast().allSatisfy { $0.expectedBytes == Int64(request.body.count) })
        }

        @Test("a file above the Linux in-memory limit still reports its total while it streams")
        func beyondTheLimit() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let size = Int(URLSessionTransport.linuxKnownLengthUploadLimit) + 1
            let (file, data) = try Scratch.file(in: folder, name: "video.mp4", size: size)
            let server = try LoopbackServer { _ in ServerReply(status: 200) }

            let log = try await Self.upload(.uploadFile(file), to: server)

            let request = try #require(server.requests.first)
            #expect(request.body == data)
            #expect(log.reports.allSatisfy { $0.expectedBytes == Int64(size) })
            #if canImport(FoundationNetworking)
                // URLSession on Linux can only stream a body chunked (see linuxKnownLengthUploadLimit).
                #expect(request.header("Transfer-Encoding") == "chunked")
            #else
                #expect(request.header("Content-Length") == "\(size)")
            #endif
        }
    }
}
