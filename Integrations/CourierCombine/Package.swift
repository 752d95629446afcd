// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features switched on for every target, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    // `any` must be spelled out for existential types, which keeps their cost visible.
    .enableUpcomingFeature("ExistentialAny"),
    // Member imports stay scoped to the file that asks for them.
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Combine publishers for Courier's providers, as Moya's `requestPublisher`: its own package, so
// that Courier's root package keeps zero dependencies. On Apple platforms it uses Combine; where
// Combine does not exist (Linux), OpenCombine, the same API, so the package is built and tested
// here.
let package = Package(
    name: "CourierCombine",
    // Combine's first releases.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "CourierCombine", targets: ["CourierCombine"])
    ],
    dependencies: [
        .package(name: "Courier", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "CourierCombine",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                // Only where Combine is missing.
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows])),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CourierCombineTests",
            dependencies: [
                "CourierCombine",
                .product(name: "CourierTesting", package: "Courier"),
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows])),
            ],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
