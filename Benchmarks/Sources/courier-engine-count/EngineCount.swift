import Courier
import Dispatch
import Foundation
import RawURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier-engine-count <variant> <requests> <in-flight> <base-url>`: sends that many small GETs
/// of `<base-url>/small.json` over URLSession, `<in-flight>` at a time (that many workers, each
/// sending its share one after another), for `Benchmarks/engines`, which runs it under `valgrind
/// --tool=callgrind` (instructions, allocations, tasks, jobs handed to the pool) and `perf stat`
/// (context switches, CPU) at two request counts and reports the difference per request.
///
/// The variants: `courier` (a `Provider` on its default transport, no plugin), `transport`
/// (`URLSessionTransport.send` alone, without the pipeline), `raw-data` (`URLSession.data(for:)`
/// on a session of Courier's configuration: the engine's own async API, which Courier cannot use
/// on Linux, where it cannot be cancelled safely) and `raw-handler` (a completion-handler data task
/// resumed through a continuation and cancelled with the calling task, on the same session: the
/// cheapest cancellable route, the hand-written baseline).
///
/// `main` is synchronous on purpose: valgrind stops in `sigsuspend` on an async `main`. The
/// requests run in a detached task, which `main` waits for on a semaphore.
@main
struct EngineCount {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count == 4, let requests = Int(arguments[1]), let inFlight = Int(arguments[2]),
            inFlight > 0, let baseURL = URL(string: arguments[3])
        else {
            let variants = "courier|transport|raw-data|raw-handler"
            let usage = "usage: courier-engine-count <\(variants)> <requests> <in-flight> <base-url>\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        let done = DispatchSemaphore(value: 0)
        let failure = EngineFailure()
        Task.detached {
            do {
                let get = try makeGet(arguments[0], baseURL: baseURL)
                try await run(get, requests: requests, inFlight: inFlight)
            } catch {
                failure.record("\(error)")
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message {
            FileHandle.standardError.write(Data("courier-engine-count: \(message)\n".utf8))
            exit(1)
        }
    }

    /// One request of `variant`, returning the body's length.
    private static func makeGet(_ variant: String, baseURL: URL) throws -> @Sendable () async throws -> Int {
        let url = baseURL.appendingPathComponent("small.json")
        switch variant {
        case "courier":
            let provider = Provider<SmallFile>()
            let target = SmallFile(baseURL: baseURL)
            return { try await provider.request(target).data.count }
        case "transport":
            let transport = URLSessionTransport()
            let request = URLRequest(url: url)
            return { try await transport.send(TransportRequest(urlRequest: request)).data.count }
        case "raw-data":
            let session = URLSession(configuration: URLSessionTransport.defaultConfiguration)
            return { try await session.data(for: URLRequest(url: url)).0.count }
        case "raw-handler":
            let session = URLSession(configuration: URLSessionTransport.defaultConfiguration)
            return { try await RawURLSession.cancellable(session, url).count }
        default:
            throw EngineCountError(description: "unknown variant \(variant)")
        }
    }

    /// `requests` calls of `get`, `inFlight` at a time: a task per worker, made once.
    private static func run(
        _ get: @escaping @Sendable () async throws -> Int, requests: Int, inFlight: Int
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<inFlight {
                let share = requests / inFlight + (worker < requests % inFlight ? 1 : 0)
                group.addTask {
                    for _ in 0..<share {
                        let count = try await get()
                        guard count == 203 else { throw EngineCountError(description: "a body of \(count) bytes") }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// The small file, as a target.
struct SmallFile: TargetType {
    let baseURL: URL
    var path: String { "small.json" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// Why the run failed.
struct EngineCountError: Error, CustomStringConvertible {
    let description: String
}

/// The first failure of the detached run, read by `main` after the run.
///
/// `@unchecked Sendable`: `stored` is written and read only while holding `lock`.
final class EngineFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    func record(_ message: String) {
        lock.withLock { if stored == nil { stored = message } }
    }

    var message: String? { lock.withLock { stored } }
}
