import CourierAsyncHTTPClient
import Foundation
import Hummingbird
import Prometheus

extension Order: ResponseEncodable {}

/// The gateway's routes: `GET /orders/{id}` through Courier, `GET /metrics` for Prometheus, and
/// for the benchmark the same call through hand-written AsyncHTTPClient code
/// (`/raw/orders/{id}`), and both without observability (`/lean/…`, `/raw-lean/…`).
public enum GatewayRoutes {
    /// The router, with a server span per request (`TracingMiddleware`, which also reads an
    /// incoming `traceparent`).
    /// - Parameters:
    ///   - provider: The Courier provider.
    ///   - benchmark: The benchmark's other routes, if wanted.
    ///   - registry: The Prometheus registry the metrics go to.
    /// - Returns: The router.
    public static func router(
        provider: Provider<UpstreamAPI>, benchmark: BenchmarkRoutes?, registry: PrometheusCollectorRegistry
    ) -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(TracingMiddleware())
        router.get("orders/:id") { _, context -> Order in
            try await order(try context.parameters.require("id", as: Int.self), from: provider)
        }
        if let benchmark {
            router.get("lean/orders/:id") { _, context -> Order in
                try await order(try context.parameters.require("id", as: Int.self), from: benchmark.lean)
            }
            router.get("resilient/orders/:id") { _, context -> Order in
                try await order(try context.parameters.require("id", as: Int.self), from: benchmark.resilient)
            }
            router.get("raw/orders/:id") { _, context -> Order in
                try await benchmark.raw.order(id: try context.parameters.require("id", as: Int.self))
            }
            router.get("raw-lean/orders/:id") { _, context -> Order in
                try await benchmark.rawLean.order(id: try context.parameters.require("id", as: Int.self))
            }
        }
        router.get("metrics") { _, _ -> String in registry.emitToString() }
        router.get("health") { _, _ -> HTTPResponse.Status in .ok }
        return router
    }

    /// Order `id` through `provider`, an upstream failure as the gateway's answer. A function, not
    /// the route's closure: in a function, `catch` knows the error is a `CourierError` (Swift
    /// infers typed throws in functions, not in closures).
    static func order(_ id: Int, from provider: Provider<UpstreamAPI>) async throws -> Order {
        do {
            return try await provider.request(.order(id: id), as: Order.self)
        } catch {
            throw HTTPError(status(for: error), message: "upstream: \(error.stage)")
        }
    }

    /// The gateway's answer for an upstream failure.
    static func status(for error: CourierError) -> HTTPResponse.Status {
        if case .statusCode(let response) = error, response.statusCode == 404 { return .notFound }
        if (error.underlyingError as? TransportFailure)?.kind == .timedOut { return .gatewayTimeout }
        return .badGateway
    }
}

/// The benchmark's routes besides the Courier one: Courier without plugins (the sign-in,
/// refresh and retry interceptors only), and the hand-written AsyncHTTPClient equivalents of both.
public struct BenchmarkRoutes: Sendable {
    /// Courier with the interceptors only.
    public let lean: Provider<UpstreamAPI>
    /// Courier with the plugins, ``ResiliencePolicy/standard`` and a memory cache.
    public let resilient: Provider<UpstreamAPI>
    /// Hand-written, with the span, metrics and log line.
    public let raw: RawUpstream
    /// Hand-written, with the token and the retry only.
    public let rawLean: RawUpstream

    /// Creates the routes' clients.
    /// - Parameters:
    ///   - lean: Courier with the interceptors only.
    ///   - resilient: Courier with the plugins, the standard resilience policy and a cache.
    ///   - raw: Hand-written, observed.
    ///   - rawLean: Hand-written, not observed.
    public init(lean: Provider<UpstreamAPI>, resilient: Provider<UpstreamAPI>, raw: RawUpstream, rawLean: RawUpstream) {
        self.lean = lean
        self.resilient = resilient
        self.raw = raw
        self.rawLean = rawLean
    }
}
