import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether a ``Cassette`` records, replays, or both, as vcrpy names its modes.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum RecordMode: String, Sendable, Hashable, CaseIterable {
    /// Records when the file does not exist yet, and replays it when it does (the default).
    case once
    /// Replays what the file has and records requests it has no entry for, adding them.
    case newEpisodes = "new_episodes"
    /// Replays only: a request the file has no entry for fails. What CI runs.
    case none
    /// Records every request again, replacing the file.
    case all

    /// The mode the environment variable `COURIER_RECORD_MODE` names (`once`, `new_episodes`,
    /// `none`, `all`), or `fallback` when it is not set.
    /// - Parameter fallback: The mode when the variable is not set (or names no mode).
    /// - Returns: The mode.
    public static func fromEnvironment(default fallback: RecordMode = .once) -> RecordMode {
        ProcessInfo.processInfo.environment["COURIER_RECORD_MODE"].flatMap(RecordMode.init(rawValue:)) ?? fallback
    }
}

/// A HAR file that a test records once against the real API and replays from then on: a
/// transport that records with a ``HARRecorder`` or replays with a ``HARReplayer`` as its
/// ``RecordMode`` says.
///
/// ```swift
/// let cassette = try Cassette(file: fixtures.appendingPathComponent("user.har"), mode: .fromEnvironment())
/// let github = Provider<GitHub>(transport: cassette)
/// ```
/// The first run (the file missing, in the default mode ``RecordMode/once``) sends to the engine
/// and writes the file; later runs answer from it, with the network untouched. CI sets
/// `COURIER_RECORD_MODE=none` so that a request the file lacks fails instead of being sent.
public final class Cassette: Transport, Sendable {
    /// The mode in effect.
    public let mode: RecordMode
    /// Whether this cassette sends requests to the engine (records), rather than only replaying.
    public var isRecording: Bool { recorder != nil }
    private let recorder: HARRecorder?
    private let replayer: HARReplayer?

    /// Creates a cassette.
    /// - Parameters:
    ///   - file: The HAR file.
    ///   - mode: Whether to record, replay or both; `COURIER_RECORD_MODE`'s, else ``RecordMode/once``.
    ///   - engine: The engine a recording sends with; URLSession by default.
    ///   - matching: How requests are matched to entries when replaying.
    ///   - order: Which entry answers when several match.
    ///   - timing: How long replayed answers take; at once by default.
    ///   - redaction: What is hidden from the file, and from requests before they are matched.
    /// - Throws: ``HARReplayError/unreadable(_:reason:)`` when the file exists but cannot be read,
    ///   or does not exist in mode ``RecordMode/none``.
    public init(
        file: URL, mode: RecordMode = .fromEnvironment(), engine: any Transport = URLSessionTransport(),
        matching: HARMatching = .default, order: ReplayOrder = .inOrder, timing: ReplayTiming = .none,
        redaction: Redaction = .default
    ) throws(HARReplayError) {
        self.mode = mode
        let exists = FileManager.default.fileExists(atPath: file.path)
        let entries = mode == .all || (!exists && mode != .none) ? [] : try HARArchive.read(file)
        let replays = mode == .none || mode == .newEpisodes || (mode == .once && exists)
        replayer =
            replays
            ? HARReplayer(entries: entries, matching: matching, order: order, timing: timing, redaction: redaction)
            : nil
        let records = mode == .all || mode == .newEpisodes || (mode == .once && !exists)
        recorder =
            records
            ? HARRecorder(
                engine, HARArchive(url: file, entries: mode == .newEpisodes ? entries : []), redaction: redaction,
                maximumBodyBytes: 4 << 20) : nil
    }

    /// The engine's capabilities when recording, the replayer's otherwise.
    public var capabilities: TransportCapabilities {
        recorder?.capabilities ?? replayer?.capabilities ?? []
    }

    /// Records or replays `request`, as the mode says.
    /// - Parameter request: The request.
    /// - Returns: The engine's response (recorded) or the file's.
    /// - Throws: What the engine throws, or a ``HARReplayError``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let replayer, let recorder else {
            // Every mode has one of them.
            if let replayer { return try await replayer.send(request) }
            return try await recorder?.send(request) ?? TransportResponse(statusCode: 500, data: Data())
        }
        do {
            return try await replayer.send(request)
        } catch HARReplayError.unmatched {
            return try await recorder.send(request)
        }
    }

    /// The requests no entry matched so far (in ``RecordMode/newEpisodes``, those recorded).
    public var unmatched: [HARReplayError] { replayer?.unmatched ?? [] }
}
