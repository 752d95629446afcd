import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a harness's requests go: Courier's stub transport, or the loopback server through
/// URLSession. Every call-order test runs in both, and expects the same sequence.
enum Mode: String, CaseIterable, Sendable {
    case stub, network
}

/// One scripted answer to an attempt, played the same way by the stub and the server.
enum Reply: Sendable {
    case status(Int)
    /// A transport failure: a stub network error, or the server closing the connection.
    case transportFailure
    /// No answer until the request is cancelled (or 30 s pass).
    case hang
}

/// A target whose base URL is the harness's server (or a placeholder for stubs).
struct OrderTarget: TargetType {
    var baseURL: URL
    var path: String = "/item"
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]? = nil
    var validationType: ValidationType = .successCodes
}

/// Builds providers whose every hook call lands in one ``CallRecorder``, and plays a script of
/// replies through the stub transport or the loopback server.
final class OrderHarness: Sendable {
    let mode: Mode
    let recorder = CallRecorder()
    private let script: Locked<[Reply]>
    private let release = DispatchSemaphore(value: 0)
    private let server: LoopbackServer?

    init(_ mode: Mode, script: [Reply]) throws {
        self.mode = mode
        let script = Locked(script)
        self.script = script
        if mode == .network {
            let release = self.release
            server = try LoopbackServer { _ in
                switch Self.next(script) {
                case .status(let code):
                    return ServerReply(status: code, body: Data("{}".utf8))
                case .transportFailure:
                    return ServerReply.closeConnection
                case .hang:
                    _ = release.wait(timeout: .now() + 30)
                    return ServerReply(status: 200)
                }
            }
        } else {
            server = nil
        }
    }

    deinit {
        for _ in 0..<4 { release.signal() }
        server?.stop()
    }

    var target: OrderTarget {
        OrderTarget(baseURL: server?.baseURL ?? URL(string: "https://stub.invalid")!)
    }

    /// How many requests reached the server (network mode).
    var serverRequestCount: Int { server?.requests.count ?? 0 }

    func provider(
        plugins: [String] = ["P1"],
        interceptor: RecordingInterceptor? = nil,
        requestClosure: (@Sendable (Endpoint) async throws -> URLRequest)? = nil,
        trackInflights: Bool = false
    ) -> Provider<OrderTarget> {
        let recorder = recorder
        let script = script
        let mode = mode
        return Provider<OrderTarget>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    recorder.record(.send)
                    return Self.sample(Self.next(script), mode: mode)
                })
            },
            requestClosure: requestClosure ?? Provider<OrderTarget>.defaultRequestMapping,
            stubClosure: { _ in
                guard mode == .stub else { return .never }
                // A hanging reply is a long delay; a script never mixes it with others.
                if case .hang? = script.withLock({ $0.first }) { return .delayed(seconds: 30) }
                return .immediate
            },
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: plugins.map { RecordingPlugin($0, recorder: recorder, observesAttempts: true) },
            interceptor: interceptor ?? RecordingInterceptor(recorder: recorder),
            trackInflights: trackInflights
        )
    }

    /// Runs one request with the async API and records its completion.
    func run(_ provider: Provider<OrderTarget>, _ target: OrderTarget? = nil) async -> Result<Response, CourierError> {
        let result: Result<Response, CourierError>
        do {
            result = .success(try await provider.request(target ?? self.target))
        } catch {
            result = .failure(error)
        }
        recorder.record(.completion(.init(result)))
        return result
    }

    private static func next(_ script: Locked<[Reply]>) -> Reply {
        script.withLock { $0.isEmpty ? .status(599) : $0.removeFirst() }
    }

    private static func sample(_ reply: Reply, mode: Mode) -> EndpointSampleResponse {
        switch reply {
        case .status(let code): .networkResponse(code, Data("{}".utf8))
        case .transportFailure: .networkError(URLError(.networkConnectionLost))
        case .hang: .networkResponse(200, Data())
        }
    }
}

extension [HookEvent] {
    /// The events of one attempt that reaches the transport and ends with `outcome`, for plugin
    /// `P1`, the per-attempt observations included.
    static func attempt(_ number: Int, _ outcome: HookEvent.Outcome) -> [HookEvent] {
        [
            .prepare("P1"), .willSend("P1", attempt: number), .adapt(attempt: number),
            .willTransmit("P1", attempt: number), .send, .didCompleteAttempt("P1", attempt: number, outcome),
        ]
    }

    /// The events after the last attempt, for plugin `P1`: didReceive, process, completion.
    static func finish(_ outcome: HookEvent.Outcome) -> [HookEvent] {
        [.didReceive("P1", outcome), .process("P1", outcome), .completion(outcome)]
    }
}
