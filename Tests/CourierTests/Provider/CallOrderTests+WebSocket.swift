import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call order of a socket: its opening handshake is one request of the pipeline (steps 1–11,
/// the upgrade in step 6's place, a 101 validated in step 7), then each message and the close
/// are observed (`didObserve`), after `process`.
@Suite("Call order of a WebSocket")
struct WebSocketCallOrderTests {
    let recorder = CallRecorder()

    /// A stubbed provider recording every hook, and a target whose peer answers the handshakes
    /// with `statuses` in turn (101 accepts), recording each as the engine's `send`.
    private func setup(
        _ statuses: [Int],
        retry: @escaping @Sendable (CourierError, RequestContext) -> RetryResult = { _, _ in
            .doNotRetry
        }
    ) -> (Provider<SocketTarget>, SocketTarget) {
        let recorder = recorder
        let remaining = Locked(statuses)
        let target = SocketTarget(
            script: WebSocketScript(handshake: { _ in
                recorder.record(.send)
                let status = remaining.withLock { $0.isEmpty ? 599 : $0.removeFirst() }
                return status == 101 ? .accept() : .refuse(status: status)
            }))
        let provider = Provider<SocketTarget>(
            stubClosure: Provider.immediatelyStub,
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: retry))
        return (provider, target)
    }

    /// Opens `target` and records the completion.
    private func open(_ provider: Provider<SocketTarget>, _ target: SocketTarget) async -> WebSocket? {
        do {
            let socket = try await provider.webSocket(target)
            recorder.record(.completion(.success(socket.response.statusCode)))
            return socket
        } catch {
            recorder.record(.completion(.init(error)))
            return nil
        }
    }

    @Test("opened at once: the handshake's whole sequence, then each message and the close")
    func opened() async throws {
        let (provider, target) = setup([101])
        let socket = try #require(await open(provider, target))
        try await socket.send(.text("hello"))
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        await socket.close()

        let open = HookEvent.Outcome.success(101)
        #expect(
            recorder.events
                == .attempt(1, open) + .finish(open) + [
                    .webSocket("P1", .sent(opcode: 1, size: 5)), .webSocket("P1", .received(opcode: 1, size: 5)),
                    .webSocket("P1", .closed(1000, byPeer: false)),
                ])
    }

    @Test("a refused upgrade goes to retry like any response; the next attempt opens")
    func refusedThenOpened() async throws {
        let (provider, target) = setup([503, 101]) { _, context in context.attempt < 2 ? .retry : .doNotRetry }
        let socket = try #require(await open(provider, target))
        let refused = HookEvent.Outcome.failure(.validation)
        let open = HookEvent.Outcome.success(101)
        #expect(
            recorder.events
                == .attempt(1, refused) + [.retry(attempt: 1, refused)] + .attempt(2, open) + .finish(open))
        await socket.close()
    }

    @Test("refused and not retried: the sequence of a failed request, and no socket")
    func refused() async throws {
        let (provider, target) = setup([403])
        #expect(await open(provider, target) == nil)
        let refused = HookEvent.Outcome.failure(.validation)
        #expect(recorder.events == .attempt(1, refused) + [.retry(attempt: 1, refused)] + .finish(refused))
    }
}

/// A socket's handshake refused for its credential refreshes it once for every socket waiting.
@Suite("WebSocket sign-in")
struct WebSocketSignInTests {
    struct Token: AuthenticationCredential {
        let value: String
        var requiresRefresh: Bool { false }
    }

    struct Swapper: Authenticator {
        let refreshes: Locked<Int>
        func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
            return request
        }
        func refresh(_ credential: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            return Token(value: "fresh")
        }
    }

    @Test("eight sockets refused with 401 at once: one refresh, every socket opens with the new token")
    func oneRefresh() async throws {
        let refreshes = Locked(0)
        let handshakes = Locked<[String]>([])
        let target = SocketTarget(
            script: WebSocketScript(handshake: { request in
                let token = request.value(forHTTPHeaderField: "Authorization") ?? ""
                handshakes.withLock { $0.append(token) }
                return token == "Bearer fresh" ? .accept() : .refuse(status: 401)
            }))
        let provider = Provider<SocketTarget>(
            stubClosure: Provider.immediatelyStub,
            interceptor: AuthenticationInterceptor(
                authenticator: Swapper(refreshes: refreshes), credential: Token(value: "stale")))
        let opened = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await provider.webSocket(target))?.response.statusCode ?? 0 }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(opened == Array(repeating: 101, count: 8))
        #expect(refreshes.value == 1)
        #expect(handshakes.value.filter { $0 == "Bearer fresh" }.count == 8)
    }
}
