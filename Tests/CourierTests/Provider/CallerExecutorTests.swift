import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Swift 6.2's `nonisolated(nonsending)` (the root package's NonisolatedNonsendingByDefault); an older
// compiler ignores the feature, and every step runs off the caller's actor.
#if compiler(>=6.2)
    /// A request awaited on the main actor runs there (issue 57), hooks and engine included, until a
    /// step with blocking work leaves it (`@concurrent`).
    @Suite("The caller's executor")
    @MainActor
    struct CallerExecutorTests {
        /// Where each step ran: `true` on the main queue, which runs the main actor's jobs (not
        /// always on the main thread: under an async `main` on Linux, a Dispatch thread drains it).
        final class Places: Sendable {
            private let places = Locked([String: Bool]())
            private static let mainQueue = DispatchSpecificKey<Bool>()

            init() {
                DispatchQueue.main.setSpecific(key: Self.mainQueue, value: true)
            }

            /// Whether the caller runs on the main queue.
            static var onMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueue) == true }

            func record(_ step: String) {
                let main = Self.onMainQueue
                places.withLock { $0[step] = main }
            }

            subscript(step: String) -> Bool? { places.withLock { $0[step] } }
        }

        /// Records where its hooks run.
        struct PlacePlugin: PluginType {
            let places: Places

            func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
                places.record("prepare")
                return request
            }

            func willSend(_ request: PreparedRequest, target: any TargetType) { places.record("willSend") }

            func process(
                _ result: Result<Response, CourierError>, target: any TargetType
            ) async -> Result<Response, CourierError> {
                places.record("process")
                return result
            }
        }

        /// An engine written in the tests: records where `send` runs, and answers with a cacheable
        /// 200 that sets a persistent cookie.
        struct PlaceEngine: Transport {
            let places: Places

            func send(_ request: TransportRequest) async throws -> TransportResponse {
                places.record("send")
                var fields = HeaderFields()
                fields.append(name: "Cache-Control", value: "max-age=60")
                fields.append(name: "Set-Cookie", value: "id=1; Max-Age=60")
                return TransportResponse(
                    statusCode: 200, headerFields: fields, url: request.urlRequest.url!, data: Data("{}".utf8))
            }
        }

        struct PlaceTarget: TargetType {
            var baseURL: URL { URL(string: "https://example.invalid")! }
            var path: String { "/item" }
            var method: HTTPMethod { .get }
            var task: HTTPTask = .requestPlain
            var headers: [String: String]? { nil }
            var sampleData: Data { Data("{}".utf8) }
        }

        @Test("hooks, the engine and the code after the await run on the main actor, without a hop")
        func onTheMainActor() async throws {
            let places = Places()
            let provider = Provider<PlaceTarget>(
                transport: PlaceEngine(places: places), plugins: [PlacePlugin(places: places)])
            _ = try await provider.request(PlaceTarget())
            #expect(Places.onMainQueue)
            for step in ["prepare", "willSend", "send", "process"] { #expect(places[step] == true, "\(step)") }
        }

        @Test("a download is placed off the main actor")
        func downloadPlacement() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let places = Places()
            var target = PlaceTarget()
            target.task = .downloadDestination { _, _ in
                places.record("destination")
                return (folder.appendingPathComponent("item.json"), [.createIntermediateDirectories])
            }
            let provider = Provider<PlaceTarget>(transport: PlaceEngine(places: places))
            let response = try await provider.request(target)
            #expect(response.fileURL?.lastPathComponent == "item.json")
            #expect(places["send"] == true)
            #expect(places["destination"] == false)
        }

        /// A storage of the app's own, in memory, that records where it is asked.
        struct PlaceStorage: HTTPCacheStorage {
            let places: Places
            let base = MemoryCacheStorage()

            func responses(forKey key: String) -> [CachedResponse] {
                places.record("lookup")
                return base.responses(forKey: key)
            }

            func store(_ responses: [CachedResponse], forKey key: String) { base.store(responses, forKey: key) }

            func removeAll() { base.removeAll() }
        }

        @Test("a cache over any storage but memory looks up off the main actor")
        func cacheStorage() async throws {
            let places = Places()
            let cache = HTTPCache(storage: PlaceStorage(places: places))
            let provider = Provider<PlaceTarget>(
                transport: PlaceEngine(places: places), options: ProviderOptions(cache: cache))
            _ = try await provider.request(PlaceTarget())
            let hit = try await provider.request(PlaceTarget())
            #expect(hit.cacheOutcome == .fresh)
            #expect(places["lookup"] == false)
            #expect(Places.onMainQueue)
        }

        @Test("a jar that persists to a file leaves the main actor; a jar in memory does not")
        func cookieJars() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let jars = [
                (CookieJar(), true), (CookieJar(persistingTo: folder.appendingPathComponent("jar.json")), false),
            ]
            for (jar, onMain) in jars {
                let places = Places()
                let provider = Provider<PlaceTarget>(
                    transport: PlaceEngine(places: places), options: ProviderOptions(cookies: jar))
                _ = try await provider.request(PlaceTarget())
                #expect(places["send"] == onMain)
                #expect(jar.cookies.count == 1)
                #expect(
                    onMain || FileManager.default.fileExists(atPath: folder.appendingPathComponent("jar.json").path))
                #expect(Places.onMainQueue)
            }
        }
    }
#endif
