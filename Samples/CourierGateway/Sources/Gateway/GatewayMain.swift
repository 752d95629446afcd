import AsyncHTTPClient
import CourierAsyncHTTPClient
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
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
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

/// Prints a line at once, even when standard output is a file or a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
