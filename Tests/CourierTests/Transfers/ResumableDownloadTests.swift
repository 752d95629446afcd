import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resumable downloads on URLSession against a loopback server that serves ranges
/// (``RangedResource``): cuts, retries, a changed file, a server without ranges, a lying one, a
/// restarted one. The same behaviour on AsyncHTTPClient is tested in its add-on.
@Suite("Resumable downloads")
struct ResumableDownloadTests {
    /// A served file of `size` bytes, its server, and a destination in a fresh folder.
    private struct Setup {
        let resource: RangedResource
        let server: LoopbackServer
        let file: URL
        let target: TransferTarget

        init(size: Int) throws {
            let folder = try Scratch.folder()
            let (_, data) = try Scratch.file(in: folder, name: "source", size: size)
            let resource = RangedResource(data)
            self.resource = resource
            server = try LoopbackServer { resource.reply(to: $0) }
            file = folder.appendingPathComponent("nested/download.bin")
            target = TransferTarget(baseURL: server.baseURL, path: "file", method: .get, task: .requestPlain)
        }
    }

    private static func quickRetries(_ limit: Int) -> RetryPolicy {
        RetryPolicy(retryLimit: limit, exponentialBackoffScale: 0.001, jitter: .none)
    }

    @Test("a download cut five times resumes on each retry: the exact bytes, at most 105% sent")
    func cutFiveTimesWithRetries() async throws {
        let setup = try Setup(size: 16 << 20)
        defer { setup.server.stop() }
        var cuts: [Int] = []
        for _ in 0..<5 { cuts.append(Int.random(in: 1...(3 << 20))) }
        for cut in cuts { setup.resource.cutNext(after: cut) }
        let provider = Provider<TransferTarget>(interceptor: Self.quickRetries(6))
        let progress = ProgressLog()
        let response = try await provider.download(setup.target, resumingInto: setup.file) { progress.add($0) }

        #expect(response.statusCode == 200)
        #expect(response.fileURL == setup.file.standardizedFileURL)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(response.headerFields["Content-Length"] == String(16 << 20))
        #expect(Double(setup.resource.bytesSent) <= Double(16 << 20) * 1.05)
        #expect(setup.resource.rangesAsked.count == 6)
        #expect(setup.resource.rangesAsked.first == .some(nil))
        #expect(progress.isMonotonicEndingAtOne)
        #expect(ResumableDownload.resumableLength(of: setup.file) == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.file.deletingLastPathComponent().path)
        #expect(leftovers == ["download.bin"])
    }

    @Test("a failed download keeps its bytes; the next call asks for the rest and reports progress from there")
    func resumesAcrossCalls() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.resource.cutNext(after: 400_000)
        let provider = Provider<TransferTarget>()
        let error = await #expect(throws: CourierError.self) {
            try await provider.download(setup.target, resumingInto: setup.file)
        }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .connectionLost)
        #expect(ResumableDownload.resumableLength(of: setup.file) == 400_000)
        #expect(!FileManager.default.fileExists(atPath: setup.file.path))

        let progress = ProgressLog()
        _ = try await provider.download(setup.target, resumingInto: setup.file) { progress.add($0) }
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.rangesAsked.last == "bytes=400000-")
        #expect((progress.reports.first?.completedBytes ?? 0) > 400_000)
        #expect(progress.isMonotonicEndingAtOne)
    }

    @Test("a file that changed between calls is downloaded whole again, never spliced")
    func changedResourceRestarts() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.resource.cutNext(after: 300_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.download(setup.target, resumingInto: setup.file)
        #expect(ResumableDownload.resumableLength(of: setup.file) == 300_000)

        setup.resource.change(to: Data(repeating: 0x5A, count: 700_000))
        let response = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == Data(repeating: 0x5A, count: 700_000))
        #expect(response.headerFields["Content-Length"] == "700000")
        #expect(setup.resource.rangesAsked.last == "bytes=300000-")
    }

    @Test("a partial file already whole (its process ended before moving it): the 416 completes it, nothing resent")
    func wholePartialFile() async throws {
        let setup = try Setup(size: 500_000)
        defer { setup.server.stop() }
        setup.resource.cutNext(after: 200_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.download(setup.target, resumingInto: setup.file)
        let partial = try FileHandle(forWritingTo: URL(fileURLWithPath: setup.file.path + ".courier-partial"))
        try partial.seekToEnd()
        try partial.write(contentsOf: setup.resource.body.suffix(from: 200_000))
        try partial.close()
        let sent = setup.resource.bytesSent

        let response = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(response.statusCode == 200)
        #expect(response.headerFields["Content-Length"] == "500000")
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.rangesAsked.last == "bytes=500000-")
        #expect(setup.resource.bytesSent == sent)
    }

    @Test("a server that ignores ranges: each retry starts over, and the file is still exact")
    func serverWithoutRanges() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.resource.supportsRanges = false
        setup.resource.cutNext(after: 500_000)
        let provider = Provider<TransferTarget>(interceptor: Self.quickRetries(2))
        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.bytesSent == 500_000 + (1 << 20))
    }

    @Test("without a validator nothing is resumed: a failure empties the partial file")
    func noValidatorStartsOver() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.resource.sendsValidator = false
        setup.resource.cutNext(after: 200_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.download(setup.target, resumingInto: setup.file)
        #expect(ResumableDownload.resumableLength(of: setup.file) == nil)
        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.rangesAsked == [nil, nil])
    }

    @Test("a 206 with the wrong Content-Range is an error, and the partial file stays as it was")
    func lyingContentRange() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.resource.cutNext(after: 100_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.download(setup.target, resumingInto: setup.file)
        setup.resource.lieInContentRange(by: 1_000)
        let error = await #expect(throws: CourierError.self) {
            try await provider.download(setup.target, resumingInto: setup.file)
        }
        #expect(
            error?.underlyingError as? TransferError
                == .rangeMismatch(expected: "bytes 100000-", received: "bytes 101000-1049575/1048576"))
        #expect(ResumableDownload.resumableLength(of: setup.file) == 100_000)
        let partial = try Data(contentsOf: setup.file.appendingPathExtension("courier-partial"))
        #expect(partial == setup.resource.body.prefix(100_000))

        setup.resource.lieInContentRange(by: 0)
        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
    }

    @Test("a server that goes away mid-download and comes back on its port: the download resumes")
    func serverRestart() async throws {
        let setup = try Setup(size: 2 << 20)
        setup.resource.cutNext(after: 1_000_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.download(setup.target, resumingInto: setup.file)
        setup.server.stop()
        let refused = await #expect(throws: CourierError.self) {
            try await provider.download(setup.target, resumingInto: setup.file)
        }
        #expect(refused != nil)
        #expect(ResumableDownload.resumableLength(of: setup.file) == 1_000_000)

        let resource = setup.resource
        let back = try LoopbackServer(port: setup.server.port) { resource.reply(to: $0) }
        defer { back.stop() }
        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.rangesAsked.last == "bytes=1000000-")
    }

    @Test("a second download into the same file while one runs is refused; discard starts over")
    func oneWriterAndDiscard() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        let held = try LoopbackServer { _ in .stall(Data(count: 1 << 20), after: 10) }
        defer { held.stop() }
        let provider = Provider<TransferTarget>()
        var stalled = setup.target
        stalled.baseURL = held.baseURL
        let first = Task { try await provider.download(stalled, resumingInto: setup.file) }
        #expect(await waitUntil { held.requests.count == 1 })
        let second = await #expect(throws: CourierError.self) {
            try await provider.download(setup.target, resumingInto: setup.file)
        }
        #expect(second?.underlyingError as? TransferError == .downloadInProgress(setup.file.standardizedFileURL))
        first.cancel()
        _ = await first.result

        ResumableDownload.discard(setup.file)
        #expect(ResumableDownload.resumableLength(of: setup.file) == nil)
        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.rangesAsked == [nil])
    }

    @Test("pause is cancelling the task: every byte received stays on disk, and the next call asks for the rest")
    func pauseAndResume() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.resource.stallNext(after: 300_000)
        let provider = Provider<TransferTarget>()
        let progress = ProgressLog()
        let paused = Task { try await provider.download(setup.target, resumingInto: setup.file) { progress.add($0) } }
        #expect(await waitUntil { progress.reports.last?.completedBytes == 300_000 })
        paused.cancel()
        let error = await #expect(throws: CourierError.self) { try await paused.value }
        #expect(error?.isCancellation == true)
        #expect(ResumableDownload.resumableLength(of: setup.file) == 300_000)

        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(try Data(contentsOf: setup.file) == setup.resource.body)
        #expect(setup.resource.rangesAsked.last == "bytes=300000-")
    }

    @Test("a 404 is a status-code error with its body; the partial file is untouched")
    func rejectedStatus() async throws {
        let folder = try Scratch.folder()
        let server = try LoopbackServer { _ in .text("no such file", status: 404) }
        defer { server.stop() }
        let provider = Provider<TransferTarget>()
        let target = TransferTarget(baseURL: server.baseURL, path: "file", method: .get, task: .requestPlain)
        let file = folder.appendingPathComponent("missing.bin")
        let error = await #expect(throws: CourierError.self) {
            try await provider.download(target, resumingInto: file)
        }
        #expect(error?.response?.statusCode == 404)
        #expect(error?.response.map { String(decoding: $0.data, as: UTF8.self) } == "no such file")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}

/// A resumable download whose process is killed in the middle, resumed by another process, and
/// 100 MiB cut five times. Both take the two cores for a moment, which blurs the timing bounds of
/// suites running alongside, so they run alone: `.ci/run` runs them after the suite with
/// `COURIER_PROCESS_TESTS=1 swift test --skip-build --filter ResumableDownloadsAlone`.
@Suite(
    "Resumable downloads across processes, and large",
    .enabled(if: ProcessInfo.processInfo.environment["COURIER_PROCESS_TESTS"] == "1", "run alone by .ci/run"))
struct ResumableDownloadsAloneTests {
    @Test("100 MiB cut five times at random points: the exact bytes, at most 105% sent")
    func hundredMebibytes() async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, data) = try Scratch.file(in: folder, name: "source", size: 100 << 20)
        let resource = RangedResource(data)
        for _ in 0..<5 { resource.cutNext(after: Int.random(in: 1...(20 << 20))) }
        let server = try LoopbackServer { resource.reply(to: $0) }
        defer { server.stop() }
        let file = folder.appendingPathComponent("large.bin")
        let target = TransferTarget(baseURL: server.baseURL, path: "file", method: .get, task: .requestPlain)
        let retries = RetryPolicy(retryLimit: 6, exponentialBackoffScale: 0.001, jitter: .none)
        _ = try await Provider<TransferTarget>(interceptor: retries).download(target, resumingInto: file)
        #expect(try Data(contentsOf: file) == data)
        #expect(Double(resource.bytesSent) <= Double(100 << 20) * 1.05)
        #expect(resource.rangesAsked.count == 6)
    }

    @Test("a process killed mid-download leaves its bytes and state; the next process asks for the rest only")
    func killedProcessResumes() async throws {
        let folder = try Scratch.folder()
        let (_, data) = try Scratch.file(in: folder, name: "source", size: 3 << 20)
        let resource = RangedResource(data)
        resource.stallNext(after: 1_234_567)
        let server = try LoopbackServer { resource.reply(to: $0) }
        defer { server.stop() }
        let file = folder.appendingPathComponent("killed.bin")

        let process = Process()
        process.executableURL = DiskCacheProcessesTests.probe
        process.arguments = ["download", server.baseURL.appendingPathComponent("file").absoluteString, file.path]
        process.standardOutput = Pipe()
        try process.run()
        // Killed once half a MiB is on disk: it may still be receiving, and its last batch
        // (up to 256 KiB gathered for one write) is lost; the next process asks for exactly what
        // is not on disk.
        let written = await waitUntil(timeout: 20) { (ResumableDownload.resumableLength(of: file) ?? 0) >= 1 << 19 }
        kill(process.processIdentifier, SIGKILL)
        await DiskCacheProcessesTests.offThePool { process.waitUntilExit() }
        #expect(written)
        #expect(process.terminationReason == .uncaughtSignal)
        let kept = try #require(ResumableDownload.resumableLength(of: file))
        #expect(kept >= 1 << 19 && kept <= 1_234_567)

        let target = TransferTarget(baseURL: server.baseURL, path: "file", method: .get, task: .requestPlain)
        _ = try await Provider<TransferTarget>().download(target, resumingInto: file)
        #expect(try Data(contentsOf: file) == data)
        #expect(resource.rangesAsked == [nil, "bytes=\(kept)-"])
        #expect(resource.bytesSent == 1_234_567 + Int64(3 << 20) - kept)
    }
}
