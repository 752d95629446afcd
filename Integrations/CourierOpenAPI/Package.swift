// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features switched on for every target, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    // `any` must be spelled out for existential types, which keeps their cost visible.
    .enableUpcomingFeature("ExistentialAny"),
    // Member imports stay scoped to the file that asks for them.
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Clients made by swift-openapi-generator, sent through Courier's pipeline: its own package, so
// that Courier's root package keeps zero dependencies. Depends on Courier by path.
let package = Package(
    name: "CourierOpenAPI",
    // The same releases as Courier.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"])
    ],
    dependencies: [
        .package(name: "Courier", path: "../.."),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Tests only: CourierMiddleware is proven under the OpenAPI transport teams keep.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "CourierOpenAPI",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The sample API's client, made by swift-openapi-generator from Sources/TodoAPI/openapi.yaml
        // and committed (Scripts/generate makes it again; CI checks that it is current).
        .target(
            name: "TodoAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"],
            // Generated code, not ours: swift-openapi-generator 1.14.3 splits the types into eight
            // files that each `public import` Foundation and OpenAPIRuntime, and Swift 6.3 warns for
            // every file that does not use them (128 warnings, none about the code itself). This
            // target is no product, so the flag never reaches a package that depends on this one.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]
        ),
        // The sample API's service on loopback, for the sample program and the tests.
        .target(
            name: "TodoService",
            dependencies: ["CourierOpenAPI", "TodoAPI", .product(name: "CourierTesting", package: "Courier")],
            swiftSettings: upcomingFeatures
        ),
        // The sample: the generated client on the loopback to-do service, through Courier.
        .executableTarget(
            name: "courier-todo",
            dependencies: ["CourierOpenAPI", "TodoAPI", "TodoService"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CourierOpenAPITests",
            dependencies: [
                "CourierOpenAPI", "TodoAPI", "TodoService",
                .product(name: "CourierTesting", package: "Courier"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
