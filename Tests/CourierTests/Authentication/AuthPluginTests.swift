import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum Secured: TargetType, AccessTokenAuthorizable {
    case open, bearer, basic, custom

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/\(self)" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }

    var authorizationType: AuthorizationType? {
        switch self {
        case .open: nil
        case .bearer: .bearer
        case .basic: .basic
        case .custom: .custom("Token")
        }
    }
}

@Suite("Authentication plugins")
struct AuthPluginTests {
    @Test("AccessTokenPlugin signs the targets that ask, with their scheme, and fetches the token asynchronously")
    func accessToken() async throws {
        actor Keychain {
            func token() async -> String { "abc" }
        }
        let keychain = Keychain()
        let transport = ScriptedTransport(fallback: .status(200))
        let plugin = AccessTokenPlugin { _ in await keychain.token() }
        let provider = Provider<Secured>(transport: transport, plugins: [plugin])
        for target in [Secured.open, .bearer, .basic, .custom] {
            _ = try await provider.request(target)
        }
        #expect(
            transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
                nil, "Bearer abc", "Basic abc", "Token abc",
            ])

        let multi = Provider<MultiTarget>(transport: transport, plugins: [plugin])
        _ = try await multi.request(MultiTarget(Secured.bearer))
        #expect(transport.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    }

    @Test("a token closure that throws fails the attempt at the prepare stage")
    func tokenFailure() async {
        struct Locked: Error {}
        let provider = Provider<Secured>(
            transport: ScriptedTransport(fallback: .status(200)), plugins: [AccessTokenPlugin { _ in throw Locked() }])
        let error = await capture { try await provider.request(.bearer) }
        #expect(error?.stage == .preparing)
        #expect(error?.underlyingError is Locked)
    }

    @Test("CredentialsPlugin sends Basic credentials up front, so a Basic-protected server answers 200")
    func credentials() async throws {
        let expected = "Basic " + Data("ann:s3cret".utf8).base64EncodedString()
        let server = try LoopbackServer { request in
            request.header("Authorization") == expected
                ? .json("{}") : ServerReply(status: 401, headers: ["WWW-Authenticate": #"Basic realm="x""#])
        }
        let signed = Provider<OrderTarget>(plugins: [
            CredentialsPlugin { _ in URLCredential(user: "ann", password: "s3cret", persistence: .none) }
        ])
        #expect(try await signed.request(OrderTarget(baseURL: server.baseURL, path: "/private")).statusCode == 200)

        let unsigned = Provider<OrderTarget>()
        let error = await capture { try await unsigned.request(OrderTarget(baseURL: server.baseURL, path: "/private")) }
        #expect(error?.response?.statusCode == 401)
    }
}
