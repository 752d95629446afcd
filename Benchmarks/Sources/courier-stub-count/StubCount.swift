import Courier
import Dispatch
import Foundation

/// `courier-stub-count <requests> [standard]`: runs the stub pipeline (two no-op plugins, no
/// decoding) the given number of times, with `ResiliencePolicy.standard` when asked, for `valgrind --tool=callgrind`, whose instruction counts are stable on
/// a noisy machine where wall-clock times are not. `Benchmarks/count` runs it at two request
/// counts and reports the difference per request, which leaves out start-up and warm-up.
///
/// `main` is synchronous on purpose: valgrind 3.19 stops in `sigsuspend` on an async `main`,
/// whose main thread parks in Dispatch. The requests run in a detached task, which `main` waits
/// for on a semaphore.
@main
struct StubCount {
    static func main() {
        let requests = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1000
        let policy: ResiliencePolicy? = CommandLine.arguments.dropFirst(2).first == "standard" ? .standard : nil
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task.detached {
            do {
                try await run(requests, policy: policy)
            } catch {
                failure.record("\(error)")
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message {
            FileHandle.standardError.write(Data("courier-stub-count: \(message)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ requests: Int, policy: ResiliencePolicy?) async throws {
        let provider = Provider<CountedTarget>(
            stubClosure: Provider.immediatelyStub, plugins: [SilentPlugin(), SilentPlugin()],
            options: ProviderOptions(resilience: policy))
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

/// A plugin with every hook left to its default.
struct SilentPlugin: PluginType {}

enum CountError: Error {
    case unexpectedBody(Int)
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
