import Courier
import CourierTesting
import Foundation
import Testing

/// A photo post in the outbox: its file goes through the resumable upload stage.
@Suite("Outbox uploads", .timeLimit(.minutes(1)))
struct OutboxUploadTests {
    struct PhotoPost: TargetType, Codable {
        let file: URL
        var baseURL: URL { URL(string: "https://photos.example")! }
        var path: String { "/files" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .uploadFile(file) }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    @Test("a photo post cut mid-upload is resumed from the server's offset on the next try")
    func resumed() async throws {
        let setup = try UploadServerSetup(size: 600_000)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 200_000)
        let folder = OutboxFolder()
        defer { folder.remove() }
        let provider = Provider<PhotoPost>(endpointClosure: {
            Provider.defaultEndpointMapping(for: $0).replacing(origin: setup.server.baseURL)
        })
        let outbox = try provider.outbox(named: "photos", in: folder.url, options: quickOptions())
        try await outbox.enqueue(PhotoPost(file: setup.file))
        let outcome = try #require(await outbox.next(1).first)
        #expect(outcome.kind == .delivered)
        #expect(setup.uploads.completed == [setup.data])
        // Resumed: the bytes before the cut are not sent again.
        #expect(setup.uploads.bytesReceived == 600_000)
        #expect(outcome.attempts == 2)
        await outbox.close()
    }
}
