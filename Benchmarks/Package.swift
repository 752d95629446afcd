// swift-tools-version: 6.0
import PackageDescription

// Courier's benchmark: one executable that runs one measurement per process, driven by `run`.
// Kept out of the root manifest; depends on Courier by path.
let package = Package(
    name: "CourierBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Courier", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "courier-bench",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
                "RawURLSession",
            ]
        ),
        // The hand-written URLSession route both executables measure Courier against.
        .target(name: "RawURLSession"),
        // Requests over URLSession, Courier's and raw, for counting under callgrind and perf (see
        // Benchmarks/engines).
        .executableTarget(
            name: "courier-engine-count",
            dependencies: [.product(name: "Courier", package: "Courier"), "RawURLSession"]
        ),
        // The stub pipeline for instruction counting under callgrind (see Benchmarks/count).
        .executableTarget(
            name: "courier-stub-count",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
