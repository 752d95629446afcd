// swift-tools-version: 6.2
import PackageDescription

/// Upcoming language features switched on for every target, as in Courier's own packages.
let upcomingFeatures: [SwiftSetting] = [
    // `any` must be spelled out for existential types.
    .enableUpcomingFeature("ExistentialAny"),
    // An import is needed in each file that uses a module: the README snippets compiled here get
    // only the imports they show.
    .enableUpcomingFeature("MemberImportVisibility"),
]

// A Swift service that calls an upstream JSON API through Courier on AsyncHTTPClient: Hummingbird 2,
// a sign-in on start, retries, a time budget per call, swift-log, swift-metrics with Prometheus on
// /metrics, swift-distributed-tracing with W3C propagation, graceful shutdown. It depends on
// Courier's add-ons as a user does, by path, with the products named as their READMEs name them;
// its tests also compile every snippet of those READMEs.
let package = Package(
    name: "CourierGateway",
    // Hummingbird 2 needs macOS 14; the demo tracer's Mutex, macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "courier-gateway", targets: ["courier-gateway"])
    ],
    dependencies: [
        .package(path: "../../Integrations/CourierAsyncHTTPClient"),
        .package(path: "../../Integrations/CourierObservability"),
        .package(path: "../../Integrations/CourierOpenAPI"),
        .package(path: "../../Integrations/CourierCombine"),
        // Without Hummingbird's default traits: no swift-configuration to build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "Gateway",
            dependencies: [
                .product(name: "CourierAsyncHTTPClient", package: "CourierAsyncHTTPClient"),
                .product(name: "CourierObservability", package: "CourierObservability"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "courier-gateway",
            dependencies: ["Gateway"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway",
                .product(name: "CourierAsyncHTTPClient", package: "CourierAsyncHTTPClient"),
                .product(name: "CourierObservability", package: "CourierObservability"),
                .product(name: "CourierOpenAPI", package: "CourierOpenAPI"),
                .product(name: "CourierCombine", package: "CourierCombine"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Combine is Apple's; the Combine README's snippet imports OpenCombine on Linux.
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ],
            // Swift 6's defaults, as in a user's package: the README snippets get no more help.
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
