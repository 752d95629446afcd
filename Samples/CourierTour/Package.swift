// swift-tools-version: 6.0
import PackageDescription

// A consumer of Courier, as an app or SDK would be: it depends on Courier by path here, by URL
// in a real project, and declares its API in its own module.
let package = Package(
    name: "CourierTour",
    // The sample's own server uses Synchronization.Mutex; Courier itself needs much less.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .executable(name: "courier-tour", targets: ["courier-tour"])
    ],
    dependencies: [
        .package(name: "Courier", path: "../..")
    ],
    targets: [
        .target(
            name: "NotesAPI",
            dependencies: [.product(name: "Courier", package: "Courier")]
        ),
        .target(name: "NotesServer", dependencies: [.product(name: "CourierTesting", package: "Courier")]),
        .executableTarget(
            name: "courier-tour",
            dependencies: [
                "NotesAPI", "NotesServer",
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
            ]
        ),
        .testTarget(
            name: "NotesAPITests",
            dependencies: [
                "NotesAPI", "NotesServer",
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierTesting", package: "Courier"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
