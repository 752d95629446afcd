import Courier
import CourierTesting
import Foundation
import Testing

/// The disk store shared by real processes: two writers at once, and a writer killed at an
/// arbitrary moment of its writing. Every entry left is whole or gone.
///
/// The writers take both cores for a moment, which blurs the timing bounds of suites running
/// alongside, so these run alone: `.ci/run` runs them after the suite with
/// `COURIER_PROCESS_TESTS=1 swift test --skip-build --filter DiskCacheProcesses`.
@Suite(
    "DiskCacheStorage across processes",
    .enabled(if: ProcessInfo.processInfo.environment["COURIER_PROCESS_TESTS"] == "1", "run alone by .ci/run"))
struct DiskCacheProcessesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-procs-\(UUID().uuidString)")

    /// Runs a blocking wait on a thread of its own: blocking one of the two cooperative threads
    /// here would starve the tests that run alongside.
    static func offThePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// The `courier-probe` executable built beside the tests (next to the test bundle, or one
    /// folder up, depending on how the toolchain lays them out).
    static var probe: URL {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let probe = here.appendingPathComponent("CourierProbe")
        return FileManager.default.fileExists(atPath: probe.path)
            ? probe : here.deletingLastPathComponent().appendingPathComponent("CourierProbe")
    }

    /// A `courier-probe disk-writer` process.
    func writer(byte: UInt8, rounds: Int) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = Self.probe
        process.arguments = ["disk-writer", folder.path, String(byte), String(rounds)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Every key's entry, read by a new storage: each whole (64 KiB of one writer's byte).
    func checkEntries(writers: Set<UInt8>) throws -> Int {
        let storage = try DiskCacheStorage(directory: folder, maximumBytes: 100_000_000)
        var whole = 0
        for key in 0..<10 {
            for entry in storage.responses(forKey: "key \(key)") {
                let byte = try #require(entry.body.first)
                #expect(entry.body.count == 65_536 && entry.body.allSatisfy { $0 == byte })
                #expect(writers.contains(byte))
                whole += 1
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.allSatisfy { $0.hasSuffix(".entry") }, "a temporary file was left: \(names)")
        return whole
    }

    @Test("two processes writing the same keys at once leave every key whole")
    func twoProcesses() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, _) = try writer(byte: 1, rounds: 8)
        let (second, _) = try writer(byte: 2, rounds: 8)
        await Self.offThePool { first.waitUntilExit() }
        await Self.offThePool { second.waitUntilExit() }
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        #expect(try checkEntries(writers: [1, 2]) == 10)
    }

    @Test("a writer killed mid-write leaves whole entries only; its temporary file goes at the next open")
    func killedWriter() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, output) = try writer(byte: 7, rounds: 1_000_000)
        // The first round is on disk once the writer says so; it is killed while it writes on.
        let line = await Self.offThePool { output.fileHandleForReading.availableData }
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("ready"))
        kill(process.processIdentifier, SIGKILL)
        await Self.offThePool { process.waitUntilExit() }
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try checkEntries(writers: [7]) == 10)
    }
}
