import Courier
import Foundation

/// The 203-byte JSON body of the small requests, and its model.
struct Item: Decodable {
    let id: Int
    let name: String
    let tags: [String]
    let price: Double
    let available: Bool
    let owner: Owner

    struct Owner: Decodable {
        let login: String
        let id: Int
    }
}

enum Payload {
    /// Exactly 203 bytes.
    static let small = Data(
        #"{"id":12345,"name":"Courier benchmark item","tags":["swift","networking","linux"],"price":19.99,"available":true,"owner":{"login":"octocat","id":583231},"description":"A small JSON body of 203 bytes..."}"#
            .utf8)
}

struct NoOpPlugin: PluginType {}

struct StubTarget: TargetType {
    var baseURL: URL { URL(string: "https://bench.invalid")! }
    var path: String { "/item" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var sampleData: Data { Payload.small }
}

/// (a) The stubbed pipeline with two no-op plugins and decoding, next to decoding alone.
enum StubBench {
    static func courier(count: Int) async throws -> [String: Double] {
        guard Payload.small.count == 203 else { throw BenchError.failed("payload of \(Payload.small.count) bytes") }
        let provider = stubProvider()
        return try await timed(count) { _ = try await provider.request(StubTarget()).map(Item.self) }
    }

    /// The same loop as ``courier(count:)``, run on the main actor, as an app's code calls it:
    /// each request then hops from the main actor to the global executor and back, which a loop
    /// in a task of its own never does.
    @MainActor
    static func mainActorLoop(count: Int) async throws -> [String: Double] {
        let provider = stubProvider()
        return try await timed(count) { _ = try await provider.request(StubTarget()).map(Item.self) }
    }

    /// Decoding in a loop on the main actor, each iteration also awaiting a nonisolated async
    /// function that does next to nothing: the two executor hops that any nonisolated async API
    /// (Courier's, URLSession's `data(for:)`) costs a main-actor caller, without work of its own.
    @MainActor
    static func mainActorHop(count: Int) async throws -> [String: Double] {
        try await timed(count) {
            await nothing()
            _ = try JSONDecoder().decode(Item.self, from: Payload.small)
        }
    }

    /// A nonisolated async function that does next to nothing (reads whether its task is
    /// cancelled, so that the optimizer keeps its hop): awaiting it from an actor hops to the
    /// global executor and back.
    @inline(never)
    nonisolated static func nothing() async {
        if Task.isCancelled { print("cancelled") }
    }

    /// The pipeline alone, without decoding: where Courier's own cost shows.
    static func pipelineOnly(count: Int) async throws -> [String: Double] {
        let provider = stubProvider()
        return try await timed(count) { _ = try await provider.request(StubTarget()) }
    }

    static func decodeOnly(count: Int) throws -> [String: Double] {
        let decoder = JSONDecoder()
        for _ in 0..<500 { _ = try decoder.decode(Item.self, from: Payload.small) }
        let start = now()
        for _ in 0..<count {
            _ = try JSONDecoder().decode(Item.self, from: Payload.small)
        }
        return ["us_per_request": (now() - start) / Double(count) * 1e6]
    }

    /// A provider that stubs every target at once, with two no-op plugins.
    private static func stubProvider() -> Provider<StubTarget> {
        Provider<StubTarget>(stubClosure: Provider.immediatelyStub, plugins: [NoOpPlugin(), NoOpPlugin()])
    }

    /// µs per run of `body` over `count` runs, after 500 to warm up, on the caller's actor (a
    /// main-actor caller's loop stays on the main actor).
    private static func timed(
        _ count: Int, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> [String: Double] {
        for _ in 0..<500 { try await body() }
        let start = now()
        for _ in 0..<count { try await body() }
        return ["us_per_request": (now() - start) / Double(count) * 1e6]
    }
}
