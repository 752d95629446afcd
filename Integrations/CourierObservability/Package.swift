// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features switched on for every target, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    // `any` must be spelled out for existential types, which keeps their cost visible.
    .enableUpcomingFeature("ExistentialAny"),
    // Member imports stay scoped to the file that asks for them.
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Courier's pipeline in swift-log, swift-metrics and swift-distributed-tracing: its own package,
// so that Courier's root package keeps zero dependencies. Depends on Courier by path.
let package = Package(
    name: "CourierObservability",
    // The same releases as Courier (the tracing API's task-local context needs them too).
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "CourierObservability", targets: ["CourierObservability"])
    ],
    dependencies: [
        .package(name: "Courier", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // OpenTelemetry's attribute names as constants (a few seconds of build, no run-time cost).
        .package(url: "https://github.com/swift-otel/swift-otel-semantic-conventions", from: "1.44.0"),
    ],
    targets: [
        .target(
            name: "CourierObservability",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The overhead benchmark: the plugins with each API's no-op backend on the stub pipeline.
        .executableTarget(
            name: "courier-observability-bench",
            dependencies: [
                "CourierObservability",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The same variants for instruction counting under callgrind (synchronous main), and the
        // plugins with recording backends (the APIs' in-memory test backends).
        .executableTarget(
            name: "courier-observability-count",
            dependencies: [
                "CourierObservability",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CourierObservabilityTests",
            dependencies: [
                "CourierObservability",
                .product(name: "CourierTesting", package: "Courier"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
