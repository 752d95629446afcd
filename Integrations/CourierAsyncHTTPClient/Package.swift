// swift-tools-version: 6.0
import PackageDescription

/// Upcoming language features switched on for every target, as in the root package.
let upcomingFeatures: [SwiftSetting] = [
    // `any` must be spelled out for existential types, which keeps their cost visible.
    .enableUpcomingFeature("ExistentialAny"),
    // Member imports stay scoped to the file that asks for them.
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Courier on AsyncHTTPClient (SwiftNIO): its own package, so that Courier's root package keeps
// zero dependencies. Depends on Courier by path.
let package = Package(
    name: "CourierAsyncHTTPClient",
    // AsyncHTTPClient's async API needs the same releases as Courier.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .executable(name: "courier-upstream", targets: ["courier-upstream"]),
    ],
    dependencies: [
        .package(name: "Courier", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // AsyncHTTPClient's own tracing is what the transport turns off and checks for.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The tests' TLS server negotiates HTTP/2 (AsyncHTTPClient depends on it already).
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // The tests send generated OpenAPI calls through Courier on this engine.
        .package(name: "CourierOpenAPI", path: "../CourierOpenAPI"),
        // The tests' resumable upload server: SwiftNIO's implementation of the IETF draft
        // (AsyncHTTPClient depends on swift-nio-extras already).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // A pinned host's chain is validated by Courier's own connection (AsyncHTTPClient offers no
        // verification callback), with swift-certificates' verifier.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // permessage-deflate for WebSockets: zlib, as swift-websocket's compression uses it.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // The tests' certificate authority makes its keys (swift-certificates depends on it already).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // A sample: a small server-side job calling an upstream API through Courier on this engine.
        .executableTarget(
            name: "courier-upstream",
            dependencies: [
                "CourierAsyncHTTPClient",
                .product(name: "CourierTesting", package: "Courier"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The benchmark: Courier on AsyncHTTPClient against raw AsyncHTTPClient and raw URLSession,
        // run side by side by Benchmarks/run.
        .executableTarget(
            name: "courier-ahc-bench",
            dependencies: [
                "CourierAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: upcomingFeatures
        ),
        // The same small GETs for callgrind: instructions per request, Courier against raw.
        .executableTarget(
            name: "courier-ahc-count",
            dependencies: [
                "CourierAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "CourierAsyncHTTPClientTests",
            dependencies: [
                "CourierAsyncHTTPClient",
                .product(name: "CourierTesting", package: "Courier"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "CourierOpenAPI", package: "CourierOpenAPI"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
