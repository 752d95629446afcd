import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A refresh that fails keeps the authentication failure each request received: Moya and
/// Alamofire apps sign out on `error.response?.statusCode == 401`. Every waiter gets the same error
/// case; only a request that received a failure carries it.
@Suite("A failed refresh keeps the 401")
struct FailedRefreshResponseTests {
    enum Path: String, CaseIterable, Sendable {
        /// The request received a 401 and asked for the refresh.
        case receivedUnauthorized
        /// The request received the target's other authentication failure status (419).
        case receivedCustomStatus
        /// The request waited in `adapt` for a refresh another one started.
        case waitedInAdapt
    }

    @Test("the error case and the response, path by path", arguments: Path.allCases)
    func path(_ path: Path) async throws {
        let status = path == .receivedCustomStatus ? 419 : 401
        let server = try TokenServer(validToken: "t-server-only", rejectionStatus: status)
        server.failRefreshes()
        let authenticator = TokenAuthenticator(server: server, failureStatusCodes: [status])
        let expired = path == .waitedInAdapt
        let provider = Provider<TokenAPI>(
            interceptor: AuthenticationInterceptor(
                authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1", expired: expired)))
        authenticator.provider.withLock { $0 = provider }

        let error = await capture { try await provider.request(.data(server)) }

        guard case .adaptation(let underlying, _)? = error else {
            Issue.record("expected .adaptation, got \(String(describing: error))")
            return
        }
        #expect((underlying as? AuthenticationError)?.code == .refreshFailed)
        switch path {
        case .receivedUnauthorized, .receivedCustomStatus:
            let response = try #require(error?.response)
            #expect(response.statusCode == status)
            #expect(response.headerFields["Content-Type"] == "application/json")
            #expect(String(decoding: response.data, as: UTF8.self) == #"{"error":"expired"}"#)
        case .waitedInAdapt:
            // It never reached the server: no response to keep.
            #expect(error?.response == nil)
            #expect(server.dataRequests.isEmpty)
        }
    }

    @Test("20 requests that all got a 401: one refresh fails them all alike, each with its own 401")
    func concurrentWaiters() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        server.failRefreshes()
        let authenticator = TokenAuthenticator(server: server)
        let provider = Provider<TokenAPI>(
            interceptor: AuthenticationInterceptor(
                authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1")))
        authenticator.provider.withLock { $0 = provider }

        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for index in 0..<20 {
                group.addTask { await capture { try await provider.request(.data(server, index)) } }
            }
            return await group.reduce(into: [CourierError?]()) { $0.append($1) }
        }

        #expect(authenticator.refreshes.value == 1)
        for error in errors {
            #expect(error?.stage == .adapting)
            #expect((error?.underlyingError as? AuthenticationError)?.code == .refreshFailed)
            // Each request either received its own 401 or waited in adapt; none has another's.
            if let response = error?.response {
                #expect(response.statusCode == 401)
                #expect(response.request?.url?.path.hasPrefix("/data/") == true)
            }
        }
        #expect(errors.contains { $0?.response?.statusCode == 401 })
    }
}
