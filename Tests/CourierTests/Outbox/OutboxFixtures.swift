import Courier
import CourierTesting
import Foundation

/// A notes API whose writes go through an outbox: `Codable`, as an outbox's target must be.
enum NotesWrite: TargetType, Codable, Equatable {
    case create(text: String)
    case like(noteID: Int)

    var baseURL: URL { URL(string: "https://notes.example")! }
    var path: String {
        switch self {
        case .create: "/notes"
        case .like(let id): "/notes/\(id)/likes"
        }
    }
    var method: HTTPMethod { .post }
    var task: HTTPTask {
        switch self {
        case .create(let text): .requestJSONEncodable(["text": text])
        case .like: .requestPlain
        }
    }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// A write whose target keeps Moya's default validation (`.none`: every status accepted).
enum LooseWrite: TargetType, Codable {
    case post(id: Int)
    var baseURL: URL { URL(string: "https://notes.example")! }
    var path: String {
        switch self {
        case .post(let id): "/loose/\(id)"
        }
    }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// A server that applies each `Idempotency-Key` once, as the draft asks of one, and records what
/// it applied, in order; `answer` decides each request's status first (a refusal is not applied).
final class IdempotentServer: Sendable {
    struct Applied: Sendable, Equatable {
        let key: String
        let path: String
        let body: String
    }

    private let applied = Locked<[Applied]>([])
    private let seenKeys = Locked<[String: Int]>([:])
    let answer: @Sendable (ServerRequest, _ tries: Int) -> ServerReply?

    init(answer: @escaping @Sendable (ServerRequest, _ tries: Int) -> ServerReply? = { _, _ in nil }) {
        self.answer = answer
    }

    /// The writes applied, in order.
    var writes: [Applied] { applied.value }

    /// How many requests carried `key`.
    func tries(of key: String) -> Int { seenKeys.value[key] ?? 0 }

    func handle(_ request: ServerRequest) -> ServerReply {
        let key = request.header("Idempotency-Key") ?? ""
        let tries = seenKeys.withLock { seen -> Int in
            seen[key, default: 0] += 1
            return seen[key]!
        }
        if let reply = answer(request, tries) { return reply }
        let write = Applied(key: key, path: request.path, body: String(decoding: request.body, as: UTF8.self))
        let first = applied.withLock { applied -> Bool in
            guard !applied.contains(where: { $0.key == key }) else { return false }
            applied.append(write)
            return true
        }
        return ServerReply(status: first ? 201 : 200, body: Data("{\"ok\":true}".utf8))
    }
}

/// A folder for one test's outboxes, removed by `remove()`.
struct OutboxFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Every file under the folder, read whole.
    func contents() -> [Data] {
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects as? [URL]
        return (files ?? []).compactMap { try? Data(contentsOf: $0) }
    }

    /// The names of the files in the folder's subfolder `path`.
    func files(under path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(path).path)) ?? []
    }
}

/// Options whose waits are short, for tests on the system clock.
func quickOptions() -> OutboxOptions {
    var options = OutboxOptions()
    options.delay = 0.01
    options.maximumDelay = 0.05
    return options
}

/// A provider of `NotesWrite` sending to `server`.
func notesProvider(
    _ server: URL, plugins: [any PluginType] = [], interceptor: (any RequestInterceptor)? = nil,
    options: ProviderOptions = .standard
) -> Provider<NotesWrite> {
    Provider<NotesWrite>(
        endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: server) },
        plugins: plugins, interceptor: interceptor, options: options)
}

extension Outbox {
    /// The next `count` outcomes, or fewer when `timeout` passes first.
    func next(_ count: Int, timeout: TimeInterval = 20) async -> [OutboxOutcome<Target>] {
        let outcomes = outcomes
        return await withTaskGroup(of: [OutboxOutcome<Target>].self) { group in
            group.addTask {
                var received: [OutboxOutcome<Target>] = []
                for await outcome in outcomes {
                    received.append(outcome)
                    if received.count == count { break }
                }
                return received
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }
}
