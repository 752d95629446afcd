// swift-tools-version: 6.0
import PackageDescription

// Builds swift-openapi-generator for Scripts/generate, which writes the sample's client into
// Sources/TodoAPI/Generated. Not part of CourierOpenAPI: its users never build the generator.
let package = Package(
    name: "CourierOpenAPIGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
