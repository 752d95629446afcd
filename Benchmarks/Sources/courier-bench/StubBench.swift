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
        let provider = Provider<StubTarget>(
            stubClosure: Provider.immediatelyStub, plugins: [NoOpPlugin(), NoOpPlugin()])
        for _ in 0..<500 { _ = try await provider.request(StubTarget()).map(Item.self) }
        let start = now()
        for _ in 0..<count {
            _ = try await provider.request(StubTarget()).map(Item.self)
        }
        return ["us_per_request": (now() - start) / Double(count) * 1e6]
    }

    /// The pipeline alone, without decoding: where Courier's own cost shows.
    static func pipelineOnly(count: Int) async throws -> [String: Double] {
        let provider = Provider<StubTarget>(
            stubClosure: Provider.immediatelyStub, plugins: [NoOpPlugin(), NoOpPlugin()])
        for _ in 0..<500 { _ = try await provider.request(StubTarget()) }
        let start = now()
        for _ in 0..<count {
            _ = try await provider.request(StubTarget())
        }
        return ["us_per_request": (now() - start) / Double(count) * 1e6]
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
}
