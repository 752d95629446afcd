import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite {
    /// Path traversal and data loss: a server's file name never chooses where a download lands, and
    /// Courier never deletes anything but the one file it replaces. Nested in the temporary-files
    /// suite, since its downloads pass through Courier's temporary files.
    @Suite("Download confinement")
    struct DownloadConfinementTests {
        /// Hostile `Content-Disposition` values and the file each must produce in the folder.
        static let hostile: [(disposition: String, expected: String)] = [
            (#"attachment; filename="""#, "file.bin"),
            ("attachment; filename=..", "file.bin"),
            ("attachment; filename=.", "file.bin"),
            (#"attachment; filename="../escape.txt""#, "escape.txt"),
            (#"attachment; filename="../../escape.txt""#, "escape.txt"),
            (#"attachment; filename="/abs/escape.txt""#, "escape.txt"),
            (#"attachment; filename="..\\..\\escape.txt""#, "escape.txt"),
            ("attachment; filename*=UTF-8''..%2F..%2Fescape.txt", "escape.txt"),
            ("attachment; filename*=UTF-8''%2E%2E", "file.bin"),
            ("attachment; filename*=UTF-8''a%00b%0D%0A.txt", "ab.txt"),
            (#"attachment; filename=".hidden""#, "hidden"),
            (#"attachment; filename="...""#, "file.bin"),
            (#"attachment; filename="c:evil.txt""#, "c_evil.txt"),
            (#"attachment; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"#, "résumé.pdf"),
            (#"attachment; filename="plain.pdf""#, "plain.pdf"),
        ]

        @Test("hostile Content-Disposition names land in the folder and delete nothing")
        func hostileNames() async throws {
            // sandbox/downloads is the folder; sandbox holds a sibling file that must survive.
            let sandbox = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: sandbox) }
            let folder = sandbox.appendingPathComponent("downloads")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("keep".utf8).write(to: folder.appendingPathComponent("earlier.txt"))
            try Data("keep".utf8).write(to: sandbox.appendingPathComponent("sibling.txt"))
            let server = try LoopbackServer { request in
                let disposition = Self.hostile[Int(request.query?.dropFirst(2) ?? "") ?? 0].disposition
                return ServerReply(headers: ["Content-Disposition": disposition], body: Data("payload".utf8))
            }
            defer { server.stop() }
            let provider = Provider<TransferTarget>()

            for (index, (disposition, expected)) in Self.hostile.enumerated() {
                let target = TransferTarget(
                    baseURL: server.baseURL, path: "/file.bin", method: .get,
                    task: .downloadParameters(
                        parameters: ["i": index], encoding: URLEncoding.queryString,
                        destination: DownloadDestinations.suggested(in: folder)))
                let response = try await provider.request(target)

                let placed = try #require(response.fileURL, "\(disposition)")
                #expect(placed.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
                #expect(placed.lastPathComponent == expected, "\(disposition)")
                #expect(try Data(contentsOf: placed) == Data("payload".utf8))
                #expect(try Data(contentsOf: folder.appendingPathComponent("earlier.txt")) == Data("keep".utf8))
                #expect(try Data(contentsOf: sandbox.appendingPathComponent("sibling.txt")) == Data("keep".utf8))
                let outside = try FileManager.default.contentsOfDirectory(atPath: sandbox.path).sorted()
                #expect(outside == ["downloads", "sibling.txt"], "\(disposition)")
            }
        }

        @Test("a destination that is a folder is an error: the folder and its files stay")
        func folderDestination() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data("keep".utf8).write(to: folder.appendingPathComponent("earlier.txt"))
            let server = try LoopbackServer { _ in .text("payload") }
            defer { server.stop() }
            let target = TransferTarget(
                baseURL: server.baseURL, path: "/file.bin", method: .get,
                task: .downloadDestination { _, _ in (folder, [.removePreviousFile, .createIntermediateDirectories]) })

            let error = await #expect(throws: CourierError.self) {
                try await Provider<TransferTarget>().request(target)
            }
            #expect(error?.underlyingError as? TransferError == .destinationIsDirectory(folder))
            #expect(try Data(contentsOf: folder.appendingPathComponent("earlier.txt")) == Data("keep".utf8))
        }

        @Test("a previous file is replaced in place, and a link at the destination is replaced, not followed")
        func atomicReplace() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let elsewhere = folder.appendingPathComponent("elsewhere.txt")
            try Data("untouched".utf8).write(to: elsewhere)
            let link = folder.appendingPathComponent("link.txt")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
            let server = try LoopbackServer { _ in .text("new") }
            defer { server.stop() }
            let target = TransferTarget(
                baseURL: server.baseURL, path: "/file.bin", method: .get,
                task: .downloadDestination { _, _ in (link, [.removePreviousFile]) })

            _ = try await Provider<TransferTarget>().request(target)

            #expect(try Data(contentsOf: link) == Data("new".utf8))
            #expect(try Data(contentsOf: elsewhere) == Data("untouched".utf8))
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil)
        }

        @Test("sanitised names: one plain component, never empty, at most 255 bytes")
        func sanitized() {
            #expect(DownloadFileName.sanitized("report.pdf") == "report.pdf")
            #expect(DownloadFileName.sanitized("") == nil)
            #expect(DownloadFileName.sanitized("..") == nil)
            #expect(DownloadFileName.sanitized("dir/") == "dir")
            #expect(DownloadFileName.sanitized("  spaced  ") == "spaced")
            #expect(DownloadFileName.sanitized(". .hidden") == "hidden")  // found by fuzzing
            #expect(DownloadFileName.sanitized("a\u{0}b\u{7F}c\u{85}d") == "abcd")
            // Found by fuzzing: "/" or "." followed by a combining mark is one character, yet the
            // file system sees the "/" or the leading ".". Names are cut on scalars.
            #expect(DownloadFileName.sanitized("evil/\u{0616}x") == "\u{0616}x")
            #expect(DownloadFileName.sanitized("a\\\u{0301}b/\u{0616}c")?.unicodeScalars.contains("/") == false)
            #expect(DownloadFileName.sanitized(".\u{0301}hidden")?.unicodeScalars.first != ".")
            let long = String(repeating: "é", count: 300) + ".tar.gz"
            let cut = DownloadFileName.sanitized(long)
            #expect((cut?.utf8.count ?? 0) <= DownloadFileName.maximumLength)
            #expect(cut?.hasSuffix(".gz") == true)
            #expect(DownloadFileName.suggested(by: nil) == DownloadFileName.fallback)
        }
    }
}
