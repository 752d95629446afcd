import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A signed-out client browsing public endpoints: ``CredentialRequirement/optional`` sends them
/// unsigned, and a 401 asks the app to sign in.
@Suite("Optional credentials")
struct OptionalCredentialTests {
    struct Token: AuthenticationCredential {
        let value: String
    }

    enum Site: TargetType {
        case publicRepository, privateRepository, signIn
        var baseURL: URL { URL(string: "http://127.0.0.1")! }
        var path: String {
            switch self {
            case .publicRepository: "/repos/public"
            case .privateRepository: "/repos/private"
            case .signIn: "/login"
            }
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    /// Signs in only when the app has a user (`user`), and counts how often it was asked.
    final class SignInOnDemand: Authenticator, Sendable {
        let user = Locked<String?>(nil)
        let signIns = Locked(0)

        func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
            return request
        }

        func signIn(context: RefreshContext) async throws -> Token? {
            signIns.withLock { $0 += 1 }
            return user.withLock { $0 }.map(Token.init)
        }

        func credentialRequirement(for request: URLRequest, target: any TargetType) -> CredentialRequirement {
            switch target as? Site {
            case .signIn?: .none
            default: .optional
            }
        }
    }

    /// A public endpoint that says whether it was signed, a private one that wants `Bearer good`.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            let authorization = request.headers.first { $0.name.lowercased() == "authorization" }?.value
            if request.path == "/repos/private", authorization != "Bearer good" {
                return .text("sign in", status: 401)
            }
            return .text(authorization ?? "anonymous")
        }
    }

    func provider(_ server: LoopbackServer, _ authenticator: SignInOnDemand, credential: Token? = nil)
        -> Provider<Site>
    {
        let base = server.baseURL
        return Provider<Site>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: base) },
            transport: URLSessionTransport(),
            interceptor: AuthenticationInterceptor(authenticator: authenticator, credential: credential))
    }

    @Test("signed out: a public endpoint is sent unsigned, and nobody is asked to sign in")
    func publicWhileSignedOut() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let authenticator = SignInOnDemand()
        let response = try await provider(server, authenticator).request(.publicRepository)

        #expect(String(decoding: response.data, as: UTF8.self) == "anonymous")
        #expect(authenticator.signIns.value == 0)
    }

    @Test("signed out: a private endpoint's 401 asks for a sign-in once, and the retry is signed")
    func privateAsksToSignIn() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let authenticator = SignInOnDemand()
        authenticator.user.withLock { $0 = "good" }
        let provider = provider(server, authenticator)

        let response = try await provider.request(.privateRepository)

        #expect(String(decoding: response.data, as: UTF8.self) == "Bearer good")
        #expect(authenticator.signIns.value == 1)
        #expect(server.requests.count == 2)
        // Signed in now: public endpoints are signed too.
        let signed = try await provider.request(.publicRepository)
        #expect(String(decoding: signed.data, as: UTF8.self) == "Bearer good")
    }

    @Test("the call order: the unsigned attempt's 401, the sign-in heard once, the signed resend")
    func callOrder() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let authenticator = SignInOnDemand()
        authenticator.user.withLock { $0 = "good" }
        let recorder = CallRecorder()
        let base = server.baseURL
        let provider = Provider<Site>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: base) },
            transport: URLSessionTransport(),
            plugins: [RecordingPlugin("P", recorder: recorder, observesAttempts: true)],
            interceptor: AuthenticationInterceptor(authenticator: authenticator, credential: nil))

        _ = try await provider.request(.privateRepository)

        let attempt = { (number: Int, outcome: HookEvent.Outcome) -> [HookEvent] in
            [
                .prepare("P"), .willSend("P", attempt: number), .willTransmit("P", attempt: number),
                .didCompleteAttempt("P", attempt: number, outcome),
            ]
        }
        #expect(
            recorder.events
                == attempt(1, .failure(.validation)) + [.didRefreshCredential("P", succeeded: true)]
                + attempt(2, .success(200)) + [.didReceive("P", .success(200)), .process("P", .success(200))])
    }

    @Test("signed out with no way to sign in: the private endpoint fails with its 401 kept in the error")
    func privateWithoutUser() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let authenticator = SignInOnDemand()

        let result = await provider(server, authenticator).result(for: .privateRepository)

        guard case .failure(.adaptation(let error as AuthenticationError, _)) = result else {
            Issue.record("expected a missing credential, got \(result)")
            return
        }
        #expect(error.code == .missingCredential)
        #expect(error.response?.statusCode == 401)
        #expect(authenticator.signIns.value == 1)
        #expect(server.requests.count == 1)
    }

    @Test("a required target still refuses to go unsigned: nothing is sent without a credential")
    func requiredStaysRequired() async throws {
        final class Strict: Authenticator, Sendable {
            func apply(_ credential: Token, to request: URLRequest) -> URLRequest { request }
        }
        let server = try Self.server()
        defer { server.stop() }
        let base = server.baseURL
        let provider = Provider<Site>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: base) },
            transport: URLSessionTransport(),
            interceptor: AuthenticationInterceptor(authenticator: Strict(), credential: nil))

        let result = await provider.result(for: .publicRepository)

        guard case .failure(.adaptation(let error as AuthenticationError, _)) = result else {
            Issue.record("expected a missing credential, got \(result)")
            return
        }
        #expect(error.code == .missingCredential)
        #expect(server.requests.isEmpty)
    }
}
