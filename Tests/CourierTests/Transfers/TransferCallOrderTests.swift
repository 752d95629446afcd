import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads and downloads take the one path of CALL-ORDER.md, stubbed or sent, and their progress
/// comes between the first `willSend` and `didReceive`, with the last report just before completion.
/// Part of the serialized `Transfers` suite, because it creates the temporary files that suite counts.
extension TemporaryFilesSuite.TransferTests {
    enum Kind: String, CaseIterable { case uploadFile, multipart, download }

    @Test("transfers take the same path, with progress inside it", arguments: Mode.allCases, Kind.allCases)
    func sameOrder(mode: Mode, kind: Kind) async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, _) = try Scratch.file(in: folder, name: "body.bin", size: 256 * 1024)
        let harness = try OrderHarness(mode, script: [.status(200)])
        var target = harness.target
        switch kind {
        case .uploadFile:
            target.method = .post
            target.task = .uploadFile(file)
        case .multipart:
            var form = MultipartFormData()
            form.append(fileURL: file, name: "file")
            target.method = .post
            target.task = .uploadMultipartFormData(form)
        case .download:
            let destination = folder.appendingPathComponent("out.bin")
            target.task = .downloadDestination { _, _ in (destination, []) }
        }
        let recorder = harness.recorder
        let done = CallRecorder()
        harness.provider().request(
            target, callbackQueue: DispatchQueue(label: "t"),
            progress: { recorder.record(.progress(final: $0.isCompleted)) },
            completion: { result in
                recorder.record(.completion(.init(result)))
                done.record(.send)
            })
        #expect(await done.wait(for: .send))

        let events = recorder.events
        let withoutProgress = events.filter { if case .progress = $0 { false } else { true } }
        #expect(withoutProgress == .attempt(1, .success(200)) + .finish(.success(200)))
        let firstWillSend = try #require(events.firstIndex(of: .willSend("P1", attempt: 1)))
        let didReceive = try #require(events.firstIndex(of: .didReceive("P1", .success(200))))
        let intermediate = events.indices.filter { events[$0] == .progress(final: false) }
        #expect(!intermediate.isEmpty)
        #expect(intermediate.allSatisfy { $0 > firstWillSend && $0 < didReceive })
        #expect(events.suffix(2) == [.progress(final: true), .completion(.success(200))])
    }
}
