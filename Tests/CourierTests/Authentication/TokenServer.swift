import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback server playing an API with expiring tokens: `GET /data/<n>` answers 200 to the
/// current token and 401 (or `rejectionStatus`) to any other; `POST /refresh` issues the next token.
final class TokenServer: Sendable {
    private struct State {
        var validToken: String
        var issued = 1
        var refreshFails = false
        var rejectAll = false
    }

    private let state: Locked<State>
    private let server: LoopbackServer

    init(validToken: String = "t1", rejectionStatus: Int = 401) throws {
        let state = Locked(State(validToken: validToken))
        self.state = state
        server = try LoopbackServer { request in
            if request.method == "POST" && request.path == "/refresh" {
                return state.withLock { state -> ServerReply in
                    guard !state.refreshFails else { return .json(#"{"error":"invalid_grant"}"#, status: 400) }
                    state.issued += 1
                    state.validToken = "t\(state.issued)"
                    return .json(#"{"access":"\#(state.validToken)","refresh":"r\#(state.issued)"}"#)
                }
            }
            let accepted = state.withLock {
                !$0.rejectAll && request.header("Authorization") == "Bearer \($0.validToken)"
            }
            return accepted
                ? .json(#"{"path":"\#(request.path)"}"#) : .json(#"{"error":"expired"}"#, status: rejectionStatus)
        }
    }

    var baseURL: URL { server.baseURL }
    var requests: [ServerRequest] { server.requests }
    var dataRequests: [ServerRequest] { server.requests.filter { $0.path.hasPrefix("/data") } }
    var refreshRequests: Int { server.requests.count { $0.path == "/refresh" } }

    func failRefreshes() { state.withLock { $0.refreshFails = true } }
    func rejectEveryToken() { state.withLock { $0.rejectAll = true } }
    func stop() { server.stop() }
}

/// The endpoints of ``TokenServer``.
struct TokenAPI: TargetType {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]? = nil
    var validationType: ValidationType { .successCodes }

    static func data(_ server: TokenServer, _ index: Int = 0) -> TokenAPI {
        TokenAPI(baseURL: server.baseURL, path: "/data/\(index)")
    }

    static func refresh(_ server: TokenServer, token: String) -> TokenAPI {
        TokenAPI(
            baseURL: server.baseURL, path: "/refresh", method: .post,
            task: .requestParameters(parameters: ["refresh_token": token], encoding: URLEncoding.httpBody))
    }
}

/// An access and refresh token pair.
struct TokenPair: AuthenticationCredential, Decodable, Equatable {
    var access: String
    var refresh: String
    var expired = false
    var requiresRefresh: Bool { expired }

    private enum CodingKeys: String, CodingKey { case access, refresh }
}

/// Signs with `Bearer <access>` and refreshes through a provider, which may be the very provider
/// the interceptor belongs to: its refresh endpoint is excluded from authentication.
final class TokenAuthenticator: Authenticator {
    let server: TokenServer
    let provider = Locked<Provider<TokenAPI>?>(nil)
    let refreshes = Locked(0)
    let failureStatusCodes: Set<Int>

    init(server: TokenServer, failureStatusCodes: Set<Int> = [401]) {
        self.server = server
        self.failureStatusCodes = failureStatusCodes
    }

    var authenticationFailureStatusCodes: Set<Int> { failureStatusCodes }

    func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("Bearer \(credential.access)", forHTTPHeaderField: "Authorization")
        return request
    }

    func refresh(_ credential: TokenPair) async throws -> TokenPair {
        refreshes.withLock { $0 += 1 }
        let provider = self.provider.withLock { $0 } ?? Provider<TokenAPI>()
        return try await provider.request(.refresh(server, token: credential.refresh), as: TokenPair.self)
    }

    func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
        request.url?.path != "/refresh"
    }
}
