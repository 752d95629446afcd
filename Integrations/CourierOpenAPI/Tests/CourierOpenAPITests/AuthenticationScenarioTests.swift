import Courier
import CourierOpenAPI
import CourierTesting
import Foundation
import OpenAPIRuntime
import Testing
import TodoAPI
import TodoService

/// The middleware teams write by hand (log, inject the token, refresh on 401 and retry), done by
/// Courier under a generated client, through both bridges; and what hand-written middleware gets
/// wrong.
@Suite("Authentication through the generated client")
struct AuthenticationScenarioTests {
    @Test("100 concurrent calls with an expired token make exactly one refresh", arguments: Bridge.allCases)
    func oneRefreshForAHundredCalls(bridge: Bridge) async throws {
        let server = try TodoServer()
        let client = bridge.client(server, interceptor: bridge.authentication(server))

        let titles = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<100 {
                group.addTask { try await client.listTodos().ok.body.json.map(\.title) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(titles.count == 100)
        #expect(titles.allSatisfy { $0 == ["Buy milk", "Call Ann"] })
        #expect(server.refreshes == 1)
        #expect(server.requests.filter { $0.path == "/v1/auth/refresh" }.count == 1)
    }

    @Test("A failed refresh fails every waiting call once, with Courier's error", arguments: Bridge.allCases)
    func failedRefreshFailsAll(bridge: Bridge) async throws {
        let server = try TodoServer()
        server.revokeRefreshToken()
        let failures = Guarded(0)
        let authenticator = TodoAuthenticator(refreshClient: bridge.client(server), serverURL: server.serverURL)
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TodoToken.expired,
            onRefreshFailure: { (_: any Error) in failures.write { $0 += 1 } })
        let client = bridge.client(server, interceptor: interceptor)

        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        _ = try await client.listTodos()
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: [any Error]()) { if let error = $1 { $0.append(error) } }
        }

        #expect(errors.count == 20)
        for error in errors {
            let cause = (error as? ClientError)?.underlyingError
            guard case .adaptation(let reason, _)? = cause as? CourierError else {
                Issue.record("Expected CourierError.adaptation, got \(error)")
                continue
            }
            guard (reason as? AuthenticationError)?.code == .refreshFailed else {
                Issue.record("Expected refreshFailed, got \(reason)")
                continue
            }
        }
        #expect(failures.read { $0 } == 1)
        #expect(server.requests.filter { $0.path == "/v1/auth/refresh" }.count == 1)
    }

    @Test("No token, old or new, and no refresh token reaches the log", arguments: Bridge.allCases)
    func secretsNeverLogged(bridge: Bridge) async throws {
        let server = try TodoServer()
        let log = LogLines()
        let authenticator = TodoAuthenticator(
            refreshClient: bridge.client(server, plugins: [log.plugin]), serverURL: server.serverURL)
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: TodoToken.expired)
        let client = bridge.client(server, plugins: [log.plugin], interceptor: interceptor)

        _ = try await client.listTodos().ok
        _ = try await client.createTodo(body: .json(.init(title: "Water plants"))).created

        #expect(server.refreshes == 1)
        #expect(log.text.contains("/v1/todos"))
        #expect(log.text.contains("Authorization"))
        for secret in ["access-secret", "refresh-secret"] {
            #expect(!log.text.contains(secret), "the log shows \(secret)")
        }
    }

    @Test("A client for another origin that shares the interceptor never sends the token", arguments: Bridge.allCases)
    func tokenStaysWithItsOrigin(bridge: Bridge) async throws {
        let api = try TodoServer()
        let elsewhere = try LoopbackServer { _ in .json("[]") }
        let interceptor = bridge.authentication(api, credential: .valid)
        let apiClient = bridge.client(api, interceptor: interceptor)
        let otherClient = bridge.client(
            serverURL: elsewhere.baseURL.appendingPathComponent("v1"), interceptor: interceptor)

        _ = try await apiClient.listTodos().ok
        _ = try await otherClient.listTodos().ok

        #expect(api.requests.last?.header("Authorization") == "Bearer \(TodoServer.accessToken(1))")
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.first?.header("Authorization") == nil)
    }
}
