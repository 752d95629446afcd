import AsyncHTTPClient
import CourierAsyncHTTPClient
import CourierObservability
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import Tracing
import UnixSignals

/// The gateway process: observability bootstrapped, the upstream (the demo's own unless one is
/// given), the provider, the routes, and a graceful shutdown on SIGTERM or SIGINT.
public enum GatewayMain {
    /// Runs until SIGTERM or SIGINT, then shuts down in order and prints what the upstream saw.
    /// - Parameters:
    ///   - port: The gateway's port.
    ///   - upstream: The upstream API, or `nil` to start the demo's.
    public static func run(port: Int, upstream: URL?) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel =
                ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        var metrics = PrometheusMetricsFactory(registry: registry)
        // OpenTelemetry's recommended buckets for the HTTP client duration (swift-metrics cannot say them).
        metrics.durationHistogramBuckets["http.client.request.duration"] =
            MetricsPlugin.recommendedDurationBuckets.map { .nanoseconds(Int64($0 * 1e9)) }
        MetricsSystem.bootstrap(metrics)
        let tracer = W3CTracer()
        InstrumentationSystem.bootstrap(tracer)
        let logger = Logger(label: "gateway")

        let demo = upstream == nil ? FakeUpstream(tokenLifetime: 30) : nil
        var demoServer: RunningServer?
        if let demo {
            let server = try await RunningServer.start(demo.router())
            say("demo upstream on port \(server.port)")
            demoServer = server
        }
        guard let upstreamURL = upstream ?? demoServer?.baseURL else { return }

        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.configuration())
        let provider = GatewayProvider.make(upstream: upstreamURL, client: client, logger: logger)
        let benchmark = BenchmarkRoutes(
            lean: GatewayProvider.lean(upstream: upstreamURL, client: client),
            resilient: GatewayProvider.resilient(upstream: upstreamURL, client: client, logger: logger),
            raw: RawUpstream(upstream: upstreamURL, client: client, logger: logger),
            rawLean: RawUpstream(upstream: upstreamURL, client: client, logger: logger, observed: false))
        let app = Application(
            router: GatewayRoutes.router(provider: provider, benchmark: benchmark, registry: registry),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in say("gateway listening on port \(channel.localAddress?.port ?? 0)") },
            logger: logger)
        let services = ServiceGroup(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await services.run()

        // Shut down in order: the server has stopped taking requests; then the client.
        try await client.shutdown()
        await demoServer?.stop()
        if let stats = demo?.stats {
            say(
                "upstream saw \(stats.orders) order requests: \(stats.traced) with one traceparent, "
                    + "\(stats.duplicateTraceContexts) with more; \(stats.tokens) tokens issued")
        }
        say("spans: \(tracer.count(of: .server)) server, \(tracer.count(of: .client)) client")
        say("gateway stopped")
    }
}

extension GatewayMain {
    /// Runs the demo's upstream alone on `port` until SIGTERM or SIGINT, its orders with
    /// `cacheControl`: what `chaos` stops and restarts while the gateway is under load.
    /// - Parameters:
    ///   - port: The port.
    ///   - cacheControl: The orders' `Cache-Control` field.
    public static func runUpstream(port: Int, cacheControl: String) async throws {
        let logger = Logger(label: "upstream")
        let app = Application(
            router: FakeUpstream(tokenLifetime: 300, orderCacheControl: cacheControl).router(),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in say("upstream listening on port \(channel.localAddress?.port ?? 0)") },
            logger: logger)
        try await ServiceGroup(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}

/// Prints a line at once, even when standard output is a file or a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
