import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs requests with the access token and refreshes it on a 401, once for all the requests
/// that need it. The refresh goes through the provider whose request asked for it (its plugins,
/// its logs; a `Provider<MultiTarget>` too): nothing to keep, no retain cycle, and it never waits
/// for itself.
public struct NotesAuthenticator: Authenticator {
    /// Creates the authenticator.
    public init() {}

    /// Adds `Authorization: Bearer <access token>`.
    public func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
        var request = request
        request.setHeaderField("Bearer \(credential.accessToken)", named: "Authorization")
        return request
    }

    /// Trades the refresh token for a new pair, through the provider that asked.
    public func refresh(_ credential: TokenPair, context: RefreshContext) async throws -> TokenPair {
        try await context.send(NotesAPI.refresh(refreshToken: credential.refreshToken)).map(TokenPair.self)
    }

    /// Signing in and refreshing go out without a token. `target` is a `NotesAPI`, even when the
    /// provider is a `Provider<MultiTarget>`.
    public func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
        (target as? NotesAPI)?.requiresToken ?? true
    }
}

/// Builds the app's providers for ``NotesAPI``.
public enum NotesService {
    /// An endpoint closure that sends requests to `baseURL` instead of the production host.
    /// - Parameter baseURL: The server to talk to.
    /// - Returns: The closure.
    public static func endpoints(at baseURL: URL) -> @Sendable (NotesAPI) -> Endpoint {
        { target in
            let endpoint = Provider<NotesAPI>.defaultEndpointMapping(for: target)
            return Endpoint(
                url: baseURL.appendingPathComponent(target.path), sampleResponseClosure: endpoint.sampleResponseClosure,
                method: endpoint.method, task: endpoint.task, httpHeaderFields: endpoint.httpHeaderFields,
                options: endpoint.options)
        }
    }

    /// The authentication interceptor, starting from `credential` (nil until sign-in).
    /// - Parameters:
    ///   - credential: The tokens, if the user is signed in.
    ///   - onRefresh: Called with each new token pair: store it there.
    ///   - onRefreshFailure: Called once when a refresh fails, after the interceptor's credential
    ///     was cleared: sign the user out there.
    /// - Returns: The interceptor.
    public static func authentication(
        credential: TokenPair?, onRefresh: (@Sendable (TokenPair) -> Void)? = nil,
        onRefreshFailure: (@Sendable (any Error) -> Void)? = nil
    ) -> AuthenticationInterceptor<NotesAuthenticator> {
        AuthenticationInterceptor(
            authenticator: NotesAuthenticator(), credential: credential,
            onRefresh: { tokens, _ in onRefresh?(tokens) },
            onRefreshFailure: { error, interceptor in
                interceptor.credential = nil
                onRefreshFailure?(error)
            })
    }

    /// A provider for a server: plugins in call order, then authentication, then retries of
    /// transient failures (a 503, a lost connection).
    /// - Parameters:
    ///   - baseURL: The server to talk to.
    ///   - authentication: Signs requests and refreshes tokens.
    ///   - plugins: Plugins, in call order.
    ///   - retries: What retries failures; retries 503s and lost connections, quickly, by default.
    /// - Returns: The provider.
    public static func makeProvider(
        baseURL: URL, authentication: AuthenticationInterceptor<NotesAuthenticator>, plugins: [any PluginType] = [],
        retries: any RequestInterceptor = RetryPolicy(exponentialBackoffScale: 0.1)
    ) -> Provider<NotesAPI> {
        Provider(
            endpointClosure: endpoints(at: baseURL),
            callbackQueue: DispatchQueue(label: "notes.callbacks"),
            plugins: plugins,
            interceptor: Interceptor(interceptors: [authentication, retries]))
    }
}
