import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``ObservingPlugin`` gets every hook but `prepare` and `process`, in its place in the order.
@Suite("Observing plugins")
struct ObservingPluginTests {
    /// Records its hooks; its `prepare` and `process` would record too, if they were called.
    struct Watcher: ObservingPlugin {
        let recorder: CallRecorder

        func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
            recorder.record(.prepare("W"))
            return request
        }

        func willSend(_ request: PreparedRequest, target: any TargetType) {
            recorder.record(.willSend("W", attempt: request.attempt))
        }

        func willTransmit(_ request: PreparedRequest, target: any TargetType) {
            recorder.record(.willTransmit("W", attempt: request.attempt))
        }

        func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
            recorder.record(.didCompleteAttempt("W", attempt: outcome.attempt, .init(outcome.result)))
        }

        func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
            recorder.record(.didReceive("W", .init(result)))
        }

        func process(
            _ result: Result<Response, CourierError>, target: any TargetType
        ) async -> Result<Response, CourierError> {
            recorder.record(.process("W", .init(result)))
            return result
        }
    }

    struct Item: TargetType {
        var baseURL: URL { URL(string: "https://observing.invalid")! }
        var path: String { "/item" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    @Test("a retried request: the watcher sees each attempt and the result, never prepare or process")
    func retriedRequest() async throws {
        let recorder = CallRecorder()
        let statuses = Locked([503, 200])
        let provider = Provider<Item>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .networkResponse(statuses.withLock { $0.removeFirst() }, Data("{}".utf8))
                })
            },
            stubClosure: Provider.immediatelyStub,
            plugins: [
                RecordingPlugin("P1", recorder: recorder, observesAttempts: true), Watcher(recorder: recorder),
                RecordingPlugin("P2", recorder: recorder),
            ],
            interceptor: RecordingInterceptor(
                recorder: recorder, retry: { _, context in context.attempt == 1 ? .retry : .doNotRetry }))

        let response = try await provider.request(Item())

        #expect(response.statusCode == 200)
        let attempt: (Int, HookEvent.Outcome) -> [HookEvent] = { number, outcome in
            [
                .prepare("P1"), .prepare("P2"), .willSend("P1", attempt: number), .willSend("W", attempt: number),
                .willSend("P2", attempt: number), .adapt(attempt: number), .willTransmit("P1", attempt: number),
                .willTransmit("W", attempt: number), .didCompleteAttempt("P1", attempt: number, outcome),
                .didCompleteAttempt("W", attempt: number, outcome),
            ]
        }
        #expect(
            recorder.events
                == attempt(1, .failure(.validation)) + [.retry(attempt: 1, .failure(.validation))]
                + attempt(2, .success(200)) + [
                    .didReceive("P1", .success(200)), .didReceive("W", .success(200)), .didReceive("P2", .success(200)),
                    .process("P1", .success(200)), .process("P2", .success(200)),
                ])
    }

    @Test("Courier's own watching plugins are observing plugins")
    func builtInPlugins() {
        let plugins: [any PluginType] = [
            NetworkLoggerPlugin(), NetworkActivityPlugin { _, _ in }, NetworkMetricsPlugin { _, _, _ in },
        ]
        #expect(plugins.allSatisfy { $0 is any ObservingPlugin })
        #expect(!(AccessTokenPlugin { _ in "token" } is any ObservingPlugin))
    }
}
