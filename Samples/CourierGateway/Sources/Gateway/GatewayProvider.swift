import AsyncHTTPClient
import CourierAsyncHTTPClient
import CourierObservability
import Foundation
import Logging
import Tracing

/// The gateway's Courier provider: AsyncHTTPClient underneath, a sign-in with client credentials on
/// the first call (and a refresh on expiry or a 401), retries, each call within its target's time
/// budget, and the three observability plugins.
public enum GatewayProvider {
    /// Makes the provider.
    /// - Parameters:
    ///   - upstream: Where the upstream API is.
    ///   - client: The `HTTPClient`, made from `AsyncHTTPClientTransport.configuration(_:)`.
    ///   - logger: The logger for the requests.
    ///   - tracer: The tracer; the one bootstrapped in `InstrumentationSystem` by default.
    /// - Returns: The provider.
    public static func make(
        upstream: URL, client: HTTPClient, logger: Logger, tracer: any Tracer = InstrumentationSystem.tracer
    ) -> Provider<UpstreamAPI> {
        let tracing = TracingPlugin(tracer: tracer)
        let auth = AuthenticationInterceptor(
            authenticator: ClientCredentials(clientID: "gateway", secret: "s3cret"))  // no token yet: it signs in
        return Provider<UpstreamAPI>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: upstream) },
            transport: AsyncHTTPClientTransport(client: client),
            plugins: [LoggingPlugin(logger: logger), MetricsPlugin(), tracing],
            interceptor: Interceptor(interceptors: [tracing, auth, .retryPolicy]))
    }

    /// The same provider with ``ResiliencePolicy/standard`` and a memory cache (the `chaos`
    /// route): a circuit breaker, a retry budget, a concurrency limit and the upstream's
    /// `Retry-After` honoured, and orders answered from the cache while fresh.
    /// - Parameters:
    ///   - upstream: Where the upstream API is.
    ///   - client: The `HTTPClient`.
    ///   - logger: The logger for the requests.
    /// - Returns: The provider.
    public static func resilient(upstream: URL, client: HTTPClient, logger: Logger) -> Provider<UpstreamAPI> {
        let tracing = TracingPlugin()
        let auth = AuthenticationInterceptor(authenticator: ClientCredentials(clientID: "gateway", secret: "s3cret"))
        return Provider<UpstreamAPI>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: upstream) },
            transport: AsyncHTTPClientTransport(client: client),
            plugins: [LoggingPlugin(logger: logger), MetricsPlugin(), tracing],
            interceptor: Interceptor(interceptors: [tracing, auth, .retryPolicy]),
            options: ProviderOptions(cache: HTTPCache(), resilience: .standard))
    }

    /// The same provider without plugins: the sign-in, refresh and retry interceptors only (the
    /// benchmark's lean route).
    public static func lean(upstream: URL, client: HTTPClient) -> Provider<UpstreamAPI> {
        let auth = AuthenticationInterceptor(authenticator: ClientCredentials(clientID: "gateway", secret: "s3cret"))
        return Provider<UpstreamAPI>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: upstream) },
            transport: AsyncHTTPClientTransport(client: client),
            interceptor: Interceptor(interceptors: [auth, .retryPolicy]))
    }
}
