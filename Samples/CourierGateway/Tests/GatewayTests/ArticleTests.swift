import Foundation
import Testing

/// The DocC article "Courier in a Swift Service" shows parts of this sample: each of its blocks
/// that names a file of the sample (`// Add-on: Samples/CourierGateway/…`) must be a part of that
/// file as it is, and its manifest's package and product lines must be this package's.
@Suite("The article about this sample")
struct ArticleTests {
    static let root = ReadmeSnippetsTests.root
    static let article = root.appendingPathComponent("Sources/Courier/Courier.docc/CourierInAService.md")

    @Test("every code block naming a file of the sample is a part of that file, unchanged")
    func blocksAreTheSample() throws {
        let blocks = ReadmeSnippetsTests.swiftBlocks(try String(contentsOf: Self.article, encoding: .utf8))
        let named = blocks.filter { $0.first?.hasPrefix("// Add-on: Samples/CourierGateway/") == true }
        #expect(named.count >= 5)
        for block in named {
            let path = String(block[0].dropFirst("// Add-on: ".count))
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let excerpt = block.dropFirst().joined(separator: "\n")
            #expect(file.contains(excerpt), "the article's part of \(path) is not in the file:\n\(excerpt)")
        }
    }

    @Test("the article's manifest names this package's packages and products")
    func manifest() throws {
        let blocks = ReadmeSnippetsTests.swiftBlocks(try String(contentsOf: Self.article, encoding: .utf8))
        let manifest = try #require(blocks.first { $0.first == "// Package.swift" })
        let own = try String(
            contentsOf: Self.root.appendingPathComponent("Samples/CourierGateway/Package.swift"), encoding: .utf8)
        let lines = manifest.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix(".package(") || $0.hasPrefix(".product(") }
        #expect(lines.count >= 15)
        for line in lines {
            #expect(own.contains(line.trimmingCharacters(in: CharacterSet(charactersIn: ","))), "\(line)")
        }
    }
}
