import Courier
import CourierTesting
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Token: AuthenticationCredential {
    let value: String
    var requiresRefresh: Bool { false }
}

/// Refreshes by asking the in-process server for a new token; counts refreshes.
final class TokenAuthenticator: Authenticator {
    let baseURL: URL
    let refreshes = Mutex(0)

    init(baseURL: URL) { self.baseURL = baseURL }

    func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
        return request
    }

    func refresh(_ credential: Token) async throws -> Token {
        refreshes.withLock { $0 += 1 }
        let response = try await Provider<HTTPTarget>().request(HTTPTarget(baseURL: baseURL, path: "refresh"))
        return Token(value: try response.mapString())
    }
}

/// (f) 100 concurrent requests with an expired token: refreshes and total time.
enum AuthBench {
    static func expiredToken(concurrent: Int) async throws -> [String: Double] {
        let valid = Mutex("fresh-0")
        let server = try LoopbackServer { request in
            if request.path == "/refresh" {
                return .text(
                    valid.withLock { token in
                        token = "fresh-\(Int(token.dropFirst(6))! + 1)"
                        return token
                    })
            }
            let ok = valid.withLock { request.header("Authorization") == "Bearer \($0)" }
            return ok ? .json("{}") : ServerReply(status: 401)
        }
        defer { server.stop() }
        let authenticator = TokenAuthenticator(baseURL: server.baseURL)
        let provider = Provider<HTTPTarget>(
            interceptor: AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "expired")))
        let start = now()
        let successes = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<concurrent {
                group.addTask {
                    try await provider.request(HTTPTarget(baseURL: server.baseURL, path: "data/\(index)")).statusCode
                }
            }
            return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
        }
        return [
            "seconds": now() - start, "refreshes": Double(authenticator.refreshes.withLock { $0 }),
            "successes": Double(successes), "server_requests": Double(server.requests.count),
        ]
    }
}
