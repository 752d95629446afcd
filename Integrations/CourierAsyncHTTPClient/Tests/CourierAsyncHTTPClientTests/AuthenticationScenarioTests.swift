import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// The README's authentication scenario on this engine: one refresh for a hundred concurrent
    /// requests with an expired token.
    @Suite("Authentication on AsyncHTTPClient")
    struct AuthenticationScenarioTests {
        struct Token: AuthenticationCredential {
            let value: String
            var requiresRefresh: Bool { false }
        }

        struct TokenAuthenticator: Authenticator {
            let refreshes = NIOLockedValueBox(0)

            func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
                var request = request
                request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
                return request
            }

            func refresh(_ credential: Token) async throws -> Token {
                refreshes.withLockedValue { $0 += 1 }
                return Token(value: "fresh")
            }

            func isAuthenticationFailure(_ request: URLRequest, response: Response) -> Bool {
                response.statusCode == 401
            }
        }

        @Test("100 concurrent requests with an expired token make one refresh, and all succeed")
        func singleFlightRefresh() async throws {
            let server = try LoopbackServer { request in
                request.header("Authorization") == "Bearer fresh"
                    ? ServerReply(body: Data("ok".utf8)) : ServerReply(status: 401)
            }
            let authenticator = TokenAuthenticator()
            let interceptor = AuthenticationInterceptor(
                authenticator: authenticator, credential: Token(value: "expired"))
            let provider = Provider<Echo>(transport: AsyncHTTPClientTransport(), interceptor: interceptor)

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    group.addTask { try await provider.request(Echo(server, "/item/\(index)")).statusCode }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(statuses.count == 100 && statuses.allSatisfy { $0 == 200 })
            #expect(authenticator.refreshes.withLockedValue { $0 } == 1)
        }
    }
}
