import Courier
import CourierTesting
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier-stub-count <requests> [standard | cache-plain | cache-miss | cache-hit | replay | main-actor]`: runs the stub
/// pipeline (two no-op plugins, no decoding) the given number of times, for `valgrind
/// --tool=callgrind`, whose instruction counts are stable on a noisy machine where wall-clock
/// times are not. `Benchmarks/count` runs it at two request counts and reports the difference
/// per request, which leaves out start-up and warm-up. The variants: `standard` adds
/// `ResiliencePolicy.standard`; the `cache-` ones answer with a sample that has a head (made
/// once), without a cache (`cache-plain`), through a memory cache that cannot store it
/// (`cache-miss`: `no-store`) or that answers every request but the first (`cache-hit`);
/// `replay` answers from a HAR file of one entry through CourierTesting's `HARReplayer` instead
/// of the stub engine; `main-actor` runs the plain stub pipeline's loop on the main actor, as an
/// app's code calls it, where every other variant's loop runs in a detached task.
///
/// `main` is synchronous on purpose: valgrind 3.19 stops in `sigsuspend` on an async `main`,
/// whose main thread parks in Dispatch. The requests run in a detached task, which `main` waits
/// for on a semaphore; for `main-actor`, in a main-actor task, which the main thread runs from
/// `RunLoop.main` until it is done (the main actor's jobs are the main queue's).
@main
struct StubCount {
    static func main() {
        let requests = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1000
        let variant = CommandLine.arguments.dropFirst(2).first ?? ""
        let failure = FailureBox()
        if variant == "main-actor" {
            let done = DoneFlag()
            Task { @MainActor in
                do {
                    try await run(requests, provider: try provider(for: ""))
                } catch {
                    failure.record("\(error)")
                }
                done.set()
            }
            while !done.isSet { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
        } else {
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                do {
                    try await run(requests, provider: try provider(for: variant))
                } catch {
                    failure.record("\(error)")
                }
                done.signal()
            }
            done.wait()
        }
        if let message = failure.message {
            FileHandle.standardError.write(Data("courier-stub-count: \(message)\n".utf8))
            exit(1)
        }
    }

    private static func provider(for variant: String) throws -> Provider<CountedTarget> {
        let plugins: [any PluginType] = [SilentPlugin(), SilentPlugin()]
        switch variant {
        case "":
            return Provider(stubClosure: Provider.immediatelyStub, plugins: plugins)
        case "standard":
            return Provider(
                stubClosure: Provider.immediatelyStub, plugins: plugins, options: ProviderOptions(resilience: .standard)
            )
        case "cache-plain", "cache-miss", "cache-hit":
            let head = HTTPURLResponse(
                url: CountedTarget().url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Cache-Control": variant == "cache-hit" ? "max-age=3600" : "no-store"])!
            // The default mapping with the kept URLs (a `nil` endpoint closure), the sample
            // replaced by a closure over the head made once.
            let mapping = Provider<CountedTarget>(stubClosure: Provider.immediatelyStub)
            return Provider(
                endpointClosure: { target in
                    mapping.endpoint(target).replacing(sampleResponseClosure: { .response(head, Data("{}".utf8)) })
                },
                stubClosure: Provider.immediatelyStub, plugins: plugins,
                options: ProviderOptions(cache: variant == "cache-plain" ? nil : HTTPCache()))
        case "replay":
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-count-\(getpid()).har")
            try Data(replayFile.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            return Provider(transport: try HARReplayer(file: file, order: .firstMatch), plugins: plugins)
        default:
            throw CountError.unknownVariant(variant)
        }
    }

    /// The loop, on the caller's actor: the main actor's for `main-actor`, none in a detached task.
    private static func run(
        _ requests: Int, provider: Provider<CountedTarget>, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        for _ in 0..<requests {
            let response = try await provider.request(CountedTarget())
            guard response.data.count == 2 else { throw CountError.unexpectedBody(response.data.count) }
        }
    }
}

/// The stubbed target: a `GET` answered with a 2-byte sample.
struct CountedTarget: TargetType {
    var baseURL: URL { URL(string: "https://bench.invalid")! }
    var path: String { "/item" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var sampleData: Data { Data("{}".utf8) }
}

/// A HAR file with the counted target's exchange.
private let replayFile = #"""
    {"log": {"version": "1.2", "creator": {"name": "count", "version": "1"}, "entries": [{
      "startedDateTime": "2026-11-27T00:00:00.000Z", "time": 1,
      "request": {"method": "GET", "url": "https://bench.invalid/item", "headers": []},
      "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],
                   "content": {"size": 2, "mimeType": "application/json", "text": "{}"}}}]}}
    """#

/// A plugin with every hook left to its default.
struct SilentPlugin: PluginType {}

enum CountError: Error {
    case unexpectedBody(Int)
    case unknownVariant(String)
}

/// The first failure of the detached run, read by `main` after the run.
///
/// `@unchecked Sendable`: `message` is written and read only while holding `lock`.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    func record(_ message: String) {
        lock.withLock { stored = message }
    }

    var message: String? { lock.withLock { stored } }
}

/// Whether the main-actor run is over, read by `main` between turns of the run loop.
///
/// `@unchecked Sendable`: `done` is written and read only while holding `lock`.
final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func set() {
        lock.withLock { done = true }
    }

    var isSet: Bool { lock.withLock { done } }
}
