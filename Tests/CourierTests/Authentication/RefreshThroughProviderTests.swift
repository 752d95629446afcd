import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Provider<MultiTarget>` whose refresh goes through itself: the authenticator switches on the
/// API enum (and matches), the refresh request never waits for the refresh it belongs to, and no
/// reference to the provider is kept.
@Suite("Refresh through the same provider", .timeLimit(.minutes(1)))
struct RefreshThroughProviderTests {
    /// The token server's API as an enum, the way an app declares it.
    enum API: TargetType {
        case data(URL, Int)
        case refresh(URL, String)

        var baseURL: URL {
            switch self {
            case .data(let url, _), .refresh(let url, _): url
            }
        }
        var path: String {
            switch self {
            case .data(_, let index): "/data/\(index)"
            case .refresh: "/refresh"
            }
        }
        var method: HTTPMethod {
            if case .refresh = self { return .post }
            return .get
        }
        var task: HTTPTask {
            switch self {
            case .data: .requestPlain
            case .refresh(_, let token):
                .requestParameters(parameters: ["refresh_token": token], encoding: URLEncoding.httpBody)
            }
        }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    /// Refreshes through the provider that asked, and keeps the targets it is asked about.
    struct EnumAuthenticator: Authenticator {
        let refreshes = Locked(0)
        let seenTargets = Locked<[String]>([])
        let excludesRefresh: Bool

        func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.access)", forHTTPHeaderField: "Authorization")
            return request
        }

        func refresh(_ credential: TokenPair, context: RefreshContext) async throws -> TokenPair {
            refreshes.withLock { $0 += 1 }
            guard case .data(let url, _)? = context.target as? API else { throw AuthenticationError.missingCredential }
            return try await context.send(API.refresh(url, credential.refresh)).map(TokenPair.self)
        }

        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            seenTargets.withLock { $0.append(String(describing: type(of: target))) }
            if excludesRefresh, case .refresh? = target as? API { return false }
            return true
        }
    }

    @Test(
        "50 concurrent expired requests through one Provider<MultiTarget> refreshing through itself: one refresh, all succeed, the provider goes away",
        arguments: [true, false])
    func fiftyConcurrent(excludesRefresh: Bool) async throws {
        let server = try TokenServer(validToken: "t2")
        defer { server.stop() }
        let authenticator = EnumAuthenticator(excludesRefresh: excludesRefresh)
        var provider: Provider<MultiTarget>? = Provider<MultiTarget>(
            interceptor: AuthenticationInterceptor(
                authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1")))
        weak let weakProvider = provider

        let succeeded = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask { [provider] in
                    try await provider!.request(MultiTarget(API.data(server.baseURL, index))).statusCode
                }
            }
            return try await group.reduce(into: 0) { count, status in count += status == 200 ? 1 : 0 }
        }
        provider = nil

        #expect(succeeded == 50)
        #expect(authenticator.refreshes.value == 1)
        #expect(server.refreshRequests == 1)
        #expect(authenticator.seenTargets.value.allSatisfy { $0 == "API" })
        #expect(await waitUntil(timeout: 5) { weakProvider == nil })
    }

    @Test("a refresh request that is rejected is not refreshed again: the waiting requests fail with refreshFailed")
    func rejectedRefresh() async throws {
        let server = try TokenServer(validToken: "t2")
        defer { server.stop() }
        server.failRefreshes()
        let authenticator = EnumAuthenticator(excludesRefresh: false)
        let provider = Provider<MultiTarget>(
            interceptor: AuthenticationInterceptor(
                authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1")))

        let error = await capture { try await provider.request(MultiTarget(API.data(server.baseURL, 1))) }

        guard case .adaptation(let underlying, _)? = error, (underlying as? AuthenticationError)?.code == .refreshFailed
        else {
            Issue.record("expected adaptation(refreshFailed), got \(String(describing: error))")
            return
        }
        #expect(server.refreshRequests == 1)
    }

    @Test("a target the provider cannot take is refused with unexpectedTarget")
    func unexpectedTarget() async throws {
        struct Refresher: Authenticator {
            func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest { request }
            func refresh(_ credential: TokenPair, context: RefreshContext) async throws -> TokenPair {
                _ = try await context.send(API.refresh(URL(string: "http://127.0.0.1:9")!, "r"))
                return credential
            }
        }
        let interceptor = AuthenticationInterceptor(
            authenticator: Refresher(), credential: TokenPair(access: "a", refresh: "r", expired: true))
        let stubbed = Provider<TokenAPI>(stubClosure: Provider.immediatelyStub, interceptor: interceptor)

        let error = await capture {
            try await stubbed.request(TokenAPI(baseURL: URL(string: "http://127.0.0.1:9")!, path: "/data/0"))
        }

        guard case .adaptation(let underlying, _)? = error,
            let refreshError = (underlying as? AuthenticationError)?.refreshError,
            case .requestBuilding(let building)? = refreshError as? CourierError
        else {
            Issue.record("expected adaptation(refreshFailed(requestBuilding)), got \(String(describing: error))")
            return
        }
        #expect(building as? RequestValidationError == .unexpectedTarget("API", provider: "TokenAPI"))
    }

    @Test("an authenticator that implements no refresh fails the request with refreshNotImplemented")
    func noRefresh() async throws {
        struct Nothing: Authenticator {
            func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest { request }
        }
        let provider = Provider<TokenAPI>(
            stubClosure: Provider.immediatelyStub,
            interceptor: AuthenticationInterceptor(
                authenticator: Nothing(), credential: TokenPair(access: "a", refresh: "r", expired: true)))

        let error = await capture {
            try await provider.request(TokenAPI(baseURL: URL(string: "http://127.0.0.1:9")!, path: "/data/0"))
        }

        guard case .adaptation(let underlying, _)? = error,
            let refreshError = (underlying as? AuthenticationError)?.refreshError
        else {
            Issue.record("expected adaptation(refreshFailed), got \(String(describing: error))")
            return
        }
        #expect((refreshError as? AuthenticationError)?.description.contains("refresh(_:context:)") == true)
    }
}
