import AsyncHTTPClient
import Courier
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Courier ``Transport`` on AsyncHTTPClient (SwiftNIO): the engine of choice for Swift on Linux
/// servers, which streams bodies both ways with backpressure and runs several times the request
/// rate of URLSession there.
///
/// ```swift
/// let provider = Provider<GitHub>(transport: AsyncHTTPClientTransport())
/// ```
/// The provider follows redirects above the engine with Courier's rules (credentials never cross
/// origins, 307/308 keep the body, the provider's `RedirectPolicy`), so the `HTTPClient` must not
/// follow redirects itself: the default client is configured so, and a client you pass must be made with
/// ``configuration(_:)`` (or `redirectConfiguration: .disallow`). A client that follows a redirect
/// anyway fails the request with ``AsyncHTTPClientTransportError/clientFollowedRedirect``.
///
/// The transport never shuts a client down: the default one lives as long as the process, and
/// one you pass is yours to shut down once its providers are done.
public struct AsyncHTTPClientTransport: Transport {
    /// The client that sends the requests.
    public let client: HTTPClient
    private let engine: AsyncHTTPClientEngine

    /// Creates the transport.
    /// - Parameter client: The client; by default ``sharedClient``. It must not follow redirects.
    public init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient) {
        self.client = client
        self.engine = AsyncHTTPClientEngine(client: client)
    }

    /// The client every transport uses unless given another: AsyncHTTPClient's shared event loop
    /// group and ``configuration(_:)`` of `HTTPClient.Configuration.singletonConfiguration`.
    /// Like `HTTPClient.shared`, it lives as long as the process and is never shut down.
    public static var sharedClient: HTTPClient { courierSharedClient }

    /// `base` as Courier needs it: redirects left to Courier (`.disallow`); a connection that
    /// cannot be made fails the request at once (`retryConnectionEstablishment = false`) instead of
    /// being tried again until the request's deadline, as URLSession does; and no tracing of its
    /// own (`tracing.tracer = nil`).
    ///
    /// Why no tracing: AsyncHTTPClient (1.37) traces every request with the tracer bootstrapped in
    /// swift-distributed-tracing, adding its own client span and trace context headers. Courier's
    /// `TracingPlugin` (CourierObservability) owns the client span, one per attempt, on every
    /// engine, with the attempt's resend count and a redacted URL; with both on, every request went
    /// out with two `traceparent` fields, which a server reads as one value that does not parse.
    /// Trace with `TracingPlugin`; a client of your own that keeps a tracer is refused a request
    /// that already carries a trace context (``AsyncHTTPClientTransportError/clientTracesRequests``).
    /// - Parameter base: The configuration to start from; by default AsyncHTTPClient's
    ///   browser-like `singletonConfiguration` (gzip and deflate decoded, full TLS verification).
    /// - Returns: The configuration.
    public static func configuration(
        _ base: HTTPClient.Configuration = .singletonConfiguration
    ) -> HTTPClient.Configuration {
        var configuration = base
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.tracing.tracer = nil
        return configuration
    }

    /// The request's total timeout is enforced here (AsyncHTTPClient's deadline ends at the
    /// response head; the transport extends it over the body), a target's repeated header fields go
    /// out as separate lines, and a trust policy is enforced: its roots and client certificate are
    /// the request's TLS configuration (they replace the client's for the hosts the policy applies
    /// to), and a request to a pinned host goes on a connection of the transport's own that checks
    /// the pins during the handshake (HTTP/1.1, kept per host and policy: AsyncHTTPClient offers
    /// no verification callback).
    ///
    /// It opens WebSockets (`.webSocket`) on connections of its own (AsyncHTTPClient has no
    /// upgrade API), with the same trust policy, on macOS 13, iOS 16 and Linux.
    public var capabilities: TransportCapabilities {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
            return [.timeouts, .repeatedHeaderFields, .trustPolicy]
        }
        return [.timeouts, .repeatedHeaderFields, .trustPolicy, .webSocket]
    }

    /// Sends `request` (one hop: a redirect is returned, the provider follows it) and returns the
    /// response with its whole body, the temporary file holding it (a download), or, for a
    /// streamed request, at its head with a body read from the connection as the consumer reads
    /// it (backpressure: a slow reader slows the transfer, and nothing is buffered; stopping the
    /// iteration cancels the request).
    /// - Parameter request: What to send.
    /// - Returns: The response, whatever its status code.
    /// - Throws: A `TransportFailure` of the same kind URLSession's error would have, a
    ///   `CancellationError`, or a `TransferError` for a body that cannot be read.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        if let socket = request.webSocket {
            guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
                throw RequestValidationError.unsupportedOptions(.webSocket, transport: "AsyncHTTPClientTransport")
            }
            return try await engine.openWebSocket(request, socket)
        }
        return request.delivery == .stream ? try await engine.streamed(request) : try await engine.send(request)
    }
}

/// The default client: one connection pool for the process, as AsyncHTTPClient's own shared
/// client. A global constant (created once, thread-safely, on first use): an `HTTPClient` must be
/// shut down before it is released, and this one never is.
private let courierSharedClient = HTTPClient(
    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
    configuration: AsyncHTTPClientTransport.configuration())
