import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The upstream API, as a Courier target: one of its calls, at the base URL it was given.
struct Upstream: TargetType {
    /// The upstream's calls.
    enum Call: Equatable {
        case order(Int)
        case flaky
        case export
        case token
    }

    let baseURL: URL
    let call: Call

    var path: String {
        switch call {
        case .order(let id): "/orders/\(id)"
        case .flaky: "/flaky"
        case .export: "/export"
        case .token: "/token"
        }
    }
    var method: HTTPMethod { call == .token ? .post : .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { ["Accept": "application/json"] }
    var validationType: ValidationType { .successCodes }
}

/// An order, as the upstream returns it.
struct Order: Decodable, Sendable {
    let id: Int
    let amount: Int
}

/// A bearer token.
struct Token: AuthenticationCredential {
    let value: String
    var requiresRefresh: Bool { false }
}

/// Signs requests with the token and refreshes it through the upstream's `/token`, on its own
/// provider (a refresh must not wait on the refresh it belongs to).
struct TokenAuthenticator: Authenticator {
    let baseURL: URL
    let refreshes = NIOLockedValueBox(0)
    private let tokenProvider = Provider<Upstream>(transport: AsyncHTTPClientTransport())

    func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
        var request = request
        request.setHeaderField("Bearer \(credential.value)", named: "Authorization")
        return request
    }

    func refresh(_ credential: Token) async throws -> Token {
        refreshes.withLockedValue { $0 += 1 }
        let response = try await tokenProvider.request(Upstream(baseURL: baseURL, call: .token))
        return Token(value: try response.mapString())
    }

    func isAuthenticationFailure(_ request: URLRequest, response: Response) -> Bool {
        response.statusCode == 401
    }

    func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
        (target as? Upstream)?.call != .token
    }
}

/// A stand-in for the upstream on 127.0.0.1: tokens, orders, an endpoint that fails once, and a
/// 10,000-line export.
final class StandInUpstream: Sendable {
    private let server: LoopbackServer
    private let flaky = NIOLockedValueBox(0)

    var baseURL: URL { server.baseURL }
    var flakyCalls: Int { flaky.withLockedValue { $0 } }

    init() throws {
        let flaky = self.flaky
        server = try LoopbackServer { request in
            if request.path == "/token" { return ServerReply(body: Data("fresh".utf8)) }
            guard request.header("Authorization") == "Bearer fresh" else { return ServerReply(status: 401) }
            if request.path == "/flaky" {
                let call = flaky.withLockedValue { count in
                    count += 1
                    return count
                }
                return call == 1 ? ServerReply(status: 503) : ServerReply(body: Data("{}".utf8))
            }
            if request.path == "/export" {
                return ServerReply(body: Data((1...10_000).map { "line \($0)\n" }.joined().utf8))
            }
            let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return ServerReply(body: Data(#"{"id": \#(id), "amount": \#(id * 10)}"#.utf8))
        }
    }
}
