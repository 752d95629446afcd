// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features switched on for every target, each with the reason.
let upcomingFeatures: [SwiftSetting] = [
    // `any` must be spelled out for existential types, which keeps their cost visible.
    .enableUpcomingFeature("ExistentialAny"),
    // Member imports stay scoped to the file that asks for them.
    .enableUpcomingFeature("MemberImportVisibility"),
    // Nonisolated async functions run on the caller's executor (SE-0461): no hop off the caller's actor per request.
    // Compilers before 6.2 ignore the name (hence `#if hasAttribute(concurrent)` around each `@concurrent`).
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "Courier",
    // The earliest releases in which async/await is available on Apple platforms.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
    ],
    targets: [
        .target(name: "Courier", swiftSettings: upcomingFeatures),
        .target(name: "CourierTesting", dependencies: ["Courier"], swiftSettings: upcomingFeatures),
        // Runs one request in a child process, for faults that crash URLSession's process on Linux.
        .executableTarget(name: "CourierProbe", dependencies: ["Courier"], swiftSettings: upcomingFeatures),
        .testTarget(
            name: "CourierTests",
            dependencies: ["Courier", "CourierTesting", "CourierProbe"],
            resources: [.copy("Fixtures")],
            swiftSettings: upcomingFeatures
        ),
        // Compiles every code sample of the README and the DocC articles (see its README rules).
        .testTarget(
            name: "DocumentationTests", dependencies: ["Courier", "CourierTesting"], swiftSettings: upcomingFeatures),
    ],
    swiftLanguageModes: [.v6]
)
