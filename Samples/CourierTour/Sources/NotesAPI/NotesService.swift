import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs requests with the access token and refreshes it on a 401, once for all the requests
/// that need it.
public struct NotesAuthenticator: Authenticator {
    /// Sends the refresh request. It has no authentication interceptor: a refresh that waited for
    /// the refresh in progress would wait for itself.
    let tokens: Provider<NotesAPI>

    /// Adds `Authorization: Bearer <access token>`.
    public func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// Trades the refresh token for a new pair.
    public func refresh(_ credential: TokenPair) async throws -> TokenPair {
        try await tokens.request(.refresh(refreshToken: credential.refreshToken), as: TokenPair.self)
    }

    /// Signing in and refreshing go out without a token.
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

    /// The authentication interceptor for a server, starting from `credential` (nil until sign-in).
    /// - Parameters:
    ///   - baseURL: The server to talk to.
    ///   - credential: The tokens, if the user is signed in.
    ///   - plugins: Plugins of the provider that refreshes tokens.
    ///   - onRefreshFailure: Called once when a refresh fails: sign the user out there.
    /// - Returns: The interceptor.
    public static func authentication(
        baseURL: URL, credential: TokenPair?, plugins: [any PluginType] = [],
        onRefreshFailure: (@Sendable (any Error) -> Void)? = nil
    ) -> AuthenticationInterceptor<NotesAuthenticator> {
        let tokens = Provider<NotesAPI>(endpointClosure: endpoints(at: baseURL), plugins: plugins)
        return AuthenticationInterceptor(
            authenticator: NotesAuthenticator(tokens: tokens), credential: credential,
            onRefreshFailure: onRefreshFailure)
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
