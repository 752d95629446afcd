import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every place that hands user code a target reaches the API enum behind a `MultiTarget` the same
/// way, and the built-in plugins and the authenticator use it.
@Suite("Underlying targets")
struct UnderlyingTargetTests {
    /// Records, hook by hook, whether the target reached `Secured`.
    struct Seer: PluginType {
        let seen = Locked<[String]>([])

        func record(_ hook: String, _ target: any TargetType) {
            let found = target.underlyingTarget(as: Secured.self) != nil
            seen.withLock { $0.append("\(hook) \(found)") }
        }
        func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
            record("prepare", target)
            return request
        }
        func willSend(_ request: PreparedRequest, target: any TargetType) { record("willSend", target) }
        func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
            record("didReceive", target)
        }
        func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
            Response, CourierError
        > {
            record("process", target)
            return result
        }
        func didFinishStream(_ summary: StreamSummary, target: any TargetType) { record("didFinishStream", target) }
    }

    @Test("unwrapping: MultiTarget, nested MultiTarget, and a plain target")
    func unwrapping() {
        #expect(MultiTarget(MultiTarget(Secured.bearer)).underlyingTarget(as: Secured.self) == .bearer)
        #expect(Secured.basic.underlyingTarget(as: Secured.self) == .basic)
        #expect(MultiTarget(Secured.open).underlyingTarget(as: TokenAPI.self) == nil)
        #expect(MultiTarget(Secured.custom).authorizationType == .custom("Token"))
    }

    @Test("every plugin hook and both interceptor calls reach the API target of a MultiTarget")
    func everyHook() async throws {
        let seer = Seer()
        let contexts = Locked<[String]>([])
        let interceptor = RecordingInterceptor(
            recorder: CallRecorder(),
            adapt: { request, context in
                contexts.withLock { $0.append("adapt \(context.target.underlyingTarget(as: Secured.self) != nil)") }
                return request
            },
            retry: { _, context in
                contexts.withLock { $0.append("retry \(context.target.underlyingTarget(as: Secured.self) != nil)") }
                return context.attempt == 1 ? .retry : .doNotRetry
            })
        let transport = ScriptedTransport(fallback: .status(200))
        transport.enqueue([.failure(URLError(.networkConnectionLost))], for: MultiTarget(Secured.bearer))
        let provider = Provider<MultiTarget>(transport: transport, plugins: [seer], interceptor: interceptor)

        _ = try await provider.request(MultiTarget(Secured.bearer))
        for try await _ in try await provider.stream(MultiTarget(Secured.open)).body {}

        #expect(
            seer.seen.value == [
                "prepare true", "willSend true", "prepare true", "willSend true", "didReceive true", "process true",
                "prepare true", "willSend true", "didReceive true", "process true", "didFinishStream true",
            ])
        #expect(contexts.value == ["adapt true", "retry true", "adapt true", "adapt true"])
    }

    @Test("CredentialsPlugin's closure gets the API target of a MultiTarget")
    func credentials() async throws {
        let targets = Locked<[String]>([])
        let plugin = CredentialsPlugin { target in
            targets.withLock { $0.append(String(describing: type(of: target))) }
            return nil
        }
        let provider = Provider<MultiTarget>(transport: ScriptedTransport(fallback: .status(200)), plugins: [plugin])
        _ = try await provider.request(MultiTarget(Secured.basic))
        #expect(targets.value == ["Secured"])
    }
}
