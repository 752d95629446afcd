import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite.TransferTests {
    @Test("a download answered with a Basic challenge fails validation with the 401's body, leaving no file")
    func challengedDownload() async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("report.pdf")
        let server = try LoopbackServer { _ in
            ServerReply(status: 401, headers: ["WWW-Authenticate": #"Basic realm="files""#], body: Data("sign in".utf8))
        }
        let before = Scratch.courierTemporaryFiles()

        let error = await capture {
            try await Provider<TransferTarget>().request(
                TransferTarget(
                    baseURL: server.baseURL, path: "/report", method: .get,
                    task: .downloadDestination { _, _ in (destination, []) }))
        }

        guard case .statusCode(let response)? = error else {
            Issue.record("expected the 401, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 401)
        #expect(response.data == Data("sign in".utf8))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(await Scratch.noTemporaryFilesLeft(since: before))
    }
}
