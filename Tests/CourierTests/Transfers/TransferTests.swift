import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads and downloads against the loopback server. Serialized with the other suites that check
/// that Courier's temporary files are gone afterwards.
extension TemporaryFilesSuite {
    @Suite("Transfers")
    struct TransferTests {
        @Test("a multipart upload arrives byte for byte, including a 50 MiB file part; its temp file is removed")
        func multipartUpload() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (small, smallData) = try Scratch.file(in: folder, name: "notes.txt", size: 1000)
            let (large, largeData) = try Scratch.file(in: folder, name: "video.mp4", size: 50 << 20)
            var form = MultipartFormData(boundary: "courier-test-boundary")
            form.append(Data("Ann".utf8), name: "author")
            form.append(fileURL: small, name: "notes")
            form.append(fileURL: large, name: "video")
            form.append(length: 5, name: "stream", fileName: "s.bin", mimeType: "application/octet-stream") {
                InputStream(data: Data("12345".utf8))
            }
            let server = try LoopbackServer { _ in .json("{}") }
            let before = Scratch.courierTemporaryFiles()
            let progress = ProgressLog()

            let provider = Provider<TransferTarget>()
            for try await report in provider.requestWithProgress(
                TransferTarget(baseURL: server.baseURL, path: "/upload", task: .uploadMultipartFormData(form)))
            {
                progress.add(report)
            }

            let request = try #require(server.requests.first)
            let parts = try #require(MultipartParser.parse(request.body, contentType: request.header("Content-Type")))
            #expect(request.header("Content-Type") == "multipart/form-data; boundary=courier-test-boundary")
            #expect(parts.map(\.body) == [Data("Ann".utf8), smallData, largeData, Data("12345".utf8)])
            #expect(parts[0].headers["Content-Disposition"] == #"form-data; name="author""#)
            #expect(parts[1].headers["Content-Disposition"] == #"form-data; name="notes"; filename="notes.txt""#)
            #expect(parts[1].headers["Content-Type"] == "text/plain")
            #expect(parts[2].headers["Content-Type"] == "video/mp4")
            #expect(progress.isMonotonicEndingAtOne)
            #expect(progress.count > 2)
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }

        @Test("a file upload streams the file; a missing file is a clear error with nothing sent")
        func fileUpload() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (file, data) = try Scratch.file(in: folder, name: "archive.zip", size: 3 << 20)
            let server = try LoopbackServer { _ in ServerReply(status: 201) }
            let provider = Provider<TransferTarget>()

            let response = try await provider.request(
                TransferTarget(baseURL: server.baseURL, path: "/files", task: .uploadFile(file)))
            #expect(response.statusCode == 201)
            #expect(server.requests.first?.body == data)

            let missing = folder.appendingPathComponent("missing.zip")
            let error = await capture {
                try await provider.request(
                    TransferTarget(baseURL: server.baseURL, path: "/files", task: .uploadFile(missing)))
            }
            #expect(error?.underlyingError as? TransferError == .fileNotReadable(missing))
            #expect(error?.stage == .transfer)
            #expect(server.requests.count == 1)
        }

        @Test("multipart on GET, or with no parts, is refused before anything is sent")
        func multipartMisuse() async throws {
            let server = try LoopbackServer { _ in .json("{}") }
            var form = MultipartFormData()
            form.append(Data("x".utf8), name: "x")
            let provider = Provider<TransferTarget>()
            var get = TransferTarget(baseURL: server.baseURL, path: "/u", task: .uploadMultipartFormData(form))
            get.method = .get
            let getError = await capture { try await provider.request(get) }
            #expect(getError?.underlyingError as? RequestValidationError == .bodyNotAllowed(.get))
            let empty = TransferTarget(
                baseURL: server.baseURL, path: "/u", task: .uploadMultipartFormData(MultipartFormData()))
            let emptyError = await capture { try await provider.request(empty) }
            #expect(emptyError?.underlyingError as? RequestValidationError == .emptyMultipartFormData)
            #expect(server.requests.isEmpty)
        }

        @Test("a download lands in a nested folder that did not exist, with monotonic progress")
        func downloadToNestedFolder() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let body = Data(repeating: 0xA5, count: 4 << 20)
            let server = try LoopbackServer { _ in ServerReply(body: body) }
            let destination = folder.appendingPathComponent("a/b/c/file.bin")
            let before = Scratch.courierTemporaryFiles()
            let progress = ProgressLog()
            let done = CallRecorder()
            let target = TransferTarget(
                baseURL: server.baseURL, path: "/file.bin", method: .get,
                task: .downloadDestination { _, _ in (destination, [.createIntermediateDirectories]) })

            Provider<TransferTarget>().request(
                target, callbackQueue: DispatchQueue(label: "t"), progress: { progress.add($0) },
                completion: { done.record(.completion(.init($0))) })
            #expect(await done.wait(for: .completion(.success(200))))

            #expect(try Data(contentsOf: destination) == body)
            #expect(progress.last?.response?.fileURL == destination)
            #expect(progress.last?.response?.data.isEmpty == true)
            #expect(progress.isMonotonicEndingAtOne)
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }

        @Test("a download replaces a previous file only when asked to")
        func downloadReplaces() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("report.csv")
            try Data("old".utf8).write(to: destination)
            let server = try LoopbackServer { _ in .text("new") }
            let provider = Provider<TransferTarget>()
            func target(_ options: DownloadOptions) -> TransferTarget {
                TransferTarget(
                    baseURL: server.baseURL, path: "/report.csv", method: .get,
                    task: .downloadDestination { _, _ in (destination, options) })
            }
            let before = Scratch.courierTemporaryFiles()

            let refused = await capture { try await provider.request(target([])) }
            guard case .transfer(.destinationExists(destination), let request)? = refused else {
                Issue.record("expected .transfer(destinationExists), got \(String(describing: refused))")
                return
            }
            #expect(request.url?.path == "/report.csv")
            #expect(try Data(contentsOf: destination) == Data("old".utf8))

            let response = try await provider.request(target([.removePreviousFile]))
            #expect(response.fileURL == destination)
            #expect(try Data(contentsOf: destination) == Data("new".utf8))
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }

        @Test("nothing is left behind after a 404, a body cut mid-transfer, or a cancellation")
        func noLeftovers() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let body = Data(repeating: 7, count: 1 << 20)
            let server = try LoopbackServer { request in
                switch request.path {
                case "/missing": .text("no such file", status: 404)
                case "/cut": .cut(body, after: 1000)
                default: .stall(body, after: 64 * 1024)
                }
            }
            let destination = folder.appendingPathComponent("out.bin")
            let provider = Provider<TransferTarget>()
            func target(_ path: String) -> TransferTarget {
                TransferTarget(
                    baseURL: server.baseURL, path: path, method: .get,
                    task: .downloadDestination { _, _ in (destination, []) })
            }
            let before = Scratch.courierTemporaryFiles()

            let notFound = await capture { try await provider.request(target("/missing")) }
            #expect(notFound?.response?.statusCode == 404)
            #expect(notFound?.response?.data == Data("no such file".utf8))
            let cut = await capture { try await provider.request(target("/cut")) }
            #expect(cut?.stage == .transport)

            let started = CallRecorder()
            let call = provider.request(
                target("/stall"), callbackQueue: DispatchQueue(label: "t"), progress: { _ in started.record(.send) },
                completion: { started.record(.completion(.init($0))) })
            #expect(await started.wait(for: .send))
            call.cancel()
            #expect(await started.wait(for: .completion(.failure(.cancellation))))

            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }

        @Test("a stubbed download is written to its destination, with progress")
        func stubbedDownload() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("stub.json")
            let provider = Provider<TransferTarget>(
                endpointClosure: { target in
                    Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                        .networkResponse(200, Data("{}".utf8))
                    })
                },
                stubClosure: Provider.immediatelyStub)
            let target = TransferTarget(
                baseURL: URL(string: "https://stub.invalid")!, path: "/d", method: .get,
                task: .downloadDestination { _, _ in (destination, []) })
            let progress = ProgressLog()
            for try await report in provider.requestWithProgress(target) { progress.add(report) }
            #expect(try Data(contentsOf: destination) == Data("{}".utf8))
            #expect(progress.reports.map(\.progress) == [1, 1])
        }

        @Test("a stubbed download behaves like Moya's destination expects: a response, the file, the sample data")
        func stubbedDownloadAsMoya() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let provider = Provider<TransferTarget>(
                endpointClosure: { target in
                    Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                        .networkResponse(200, Data("%PDF".utf8))
                    })
                },
                stubClosure: Provider.immediatelyStub)
            let seen = Locked<[String]>([])
            let target = TransferTarget(
                baseURL: URL(string: "https://stub.invalid")!, path: "/files/report.pdf", method: .get,
                task: .downloadDestination { _, response in
                    // Moya's own destination: it force-unwraps the response's suggested name.
                    let name = response!.suggestedFilename!
                    seen.withLock { $0.append("\(response!.statusCode) \(name)") }
                    return (folder.appendingPathComponent(name), [])
                })

            let response = try await provider.request(target)

            // FoundationNetworking suggests "Unknown" without a Content-Disposition, where Apple's
            // Foundation takes the URL's last component: the name is the platform's.
            let name = try #require(response.response?.suggestedFilename)
            #expect(seen.value == ["200 \(name)"])
            #expect(response.fileURL?.lastPathComponent == name)
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == Data("%PDF".utf8))
            #expect(response.data == Data("%PDF".utf8))
            #expect(response.response?.url?.path == "/files/report.pdf")
            #expect(DownloadFileName.suggested(by: response.response) == "report.pdf")
        }
    }
}

/// Progress reports, as a test collects them.
final class ProgressLog: Sendable {
    private let storage = Locked<[ProgressResponse]>([])

    func add(_ report: ProgressResponse) { storage.withLock { $0.append(report) } }
    var reports: [ProgressResponse] { storage.withLock { $0 } }
    var count: Int { reports.count }
    var last: ProgressResponse? { reports.last }

    /// Fractions and byte counts never go back, and the last report is 1.0 with the response.
    var isMonotonicEndingAtOne: Bool {
        let reports = reports
        let ordered = zip(reports, reports.dropFirst()).allSatisfy {
            $0.progress <= $1.progress && $0.completedBytes <= $1.completedBytes
        }
        return ordered && reports.last?.progress == 1 && reports.last?.isCompleted == true
    }
}
