import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call order of a redirected request: the hops are part of step 6 of their attempt, so the
/// hooks are those of one answer; the engine (`.send`, recorded by a `RecordingTransport` around
/// it) is called once per hop, since redirects are followed above every engine.
@Suite("Call order through redirects")
struct RedirectCallOrderTests {
    let recorder = CallRecorder()

    func provider(_ redirects: RedirectPolicy = .follow) -> Provider<OrderTarget> {
        Provider<OrderTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder),
            options: ProviderOptions(redirects: redirects, cookies: CookieJar()))
    }

    func events(_ provider: Provider<OrderTarget>, _ target: OrderTarget) async -> [HookEvent] {
        recorder.record(.completion(.init(await provider.result(for: target))))
        return recorder.events
    }

    func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/item": ServerReply(status: 302, headers: ["Location": "/moved", "Set-Cookie": "hop=1; Path=/"])
            case "/moved": ServerReply(status: 307, headers: ["Location": "/end"])
            default: .text("end")
            }
        }
    }

    @Test("two redirects: one attempt's hooks, the engine once per hop")
    func followed() async throws {
        let server = try server()
        defer { server.stop() }
        let events = await events(provider(), OrderTarget(baseURL: server.baseURL))

        let attempt = [HookEvent].attempt(1, .success(200))
        let hops = attempt.flatMap { $0 == .send ? [HookEvent.send, .send, .send] : [$0] }
        #expect(events == hops + .finish(.success(200)))
        #expect(server.requests.map(\.path) == ["/item", "/moved", "/end"])
    }

    @Test("a refused redirect is the answer: the sequence of a rejected status, the engine once")
    func refused() async throws {
        let server = try server()
        defer { server.stop() }
        let events = await events(provider(.refuse), OrderTarget(baseURL: server.baseURL))

        let rejected = HookEvent.Outcome.failure(.validation)
        #expect(events == [HookEvent].attempt(1, rejected) + [.retry(attempt: 1, rejected)] + .finish(rejected))
        #expect(server.requests.map(\.path) == ["/item"])
    }

    @Test("a refused downgrade (https → http) fails in step 6: the transport failure's sequence, one hop sent")
    func downgrade() async throws {
        let engine = BareEngine(["https://api.example.com/item": (302, ["Location": "http://api.example.com/end"])])
        let provider = Provider<OrderTarget>(
            transport: RecordingTransport(engine, recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder))
        let events = await events(provider, OrderTarget(baseURL: URL(string: "https://api.example.com")!))

        let failed = HookEvent.Outcome.failure(.transport)
        #expect(events == [HookEvent].attempt(1, failed) + [.retry(attempt: 1, failed)] + .finish(failed))
        #expect(engine.sent.value.map { $0.url!.absoluteString } == ["https://api.example.com/item"])
    }
}
