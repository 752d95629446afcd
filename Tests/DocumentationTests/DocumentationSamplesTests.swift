import Foundation
import Testing

/// Keeps DocumentationSamples.swift — every `swift` block of the README and of the DocC articles —
/// in step with the documentation. The file is part of this test target, so every sample must
/// compile; this test fails when the file no longer matches the documentation.
///
/// To update it after editing the documentation:
/// `COURIER_UPDATE_SAMPLES=1 swift test --filter DocumentationSamples`.
@Suite("Documentation samples")
struct DocumentationSamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let generated = root.appendingPathComponent("Tests/DocumentationTests/DocumentationSamples.swift")

    @Test("DocumentationSamples.swift matches the README and the articles")
    func samplesAreCurrent() throws {
        try checkCurrent(Self.generated, expected: SampleExtractor.generate(root: Self.root))
    }

    static let symbolSamples = root.appendingPathComponent("Tests/DocumentationTests/SymbolDocumentationSamples.swift")

    @Test("SymbolDocumentationSamples.swift matches the examples of the symbol documentation")
    func symbolSamplesAreCurrent() throws {
        try checkCurrent(Self.symbolSamples, expected: SymbolSamples.generate(root: Self.root))
    }

    /// Fails when `file` is not `expected`; writes it first with `COURIER_UPDATE_SAMPLES=1`.
    private func checkCurrent(_ file: URL, expected: String) throws {
        if ProcessInfo.processInfo.environment["COURIER_UPDATE_SAMPLES"] == "1" {
            try expected.write(to: file, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOf: file, encoding: .utf8)
        #expect(
            current == expected,
            "The documentation changed: run COURIER_UPDATE_SAMPLES=1 swift test --filter DocumentationSamples")
    }

    @Test("every documentation file with samples is covered")
    func coverage() throws {
        let files = try SampleExtractor.documentationFiles(root: Self.root).map(\.lastPathComponent)
        #expect(
            files.contains("README.md") && files.contains("GettingStarted.md") && files.contains("MigratingFromMoya.md")
        )
    }
}

/// Turns the documentation's `swift` blocks into one Swift file: one function per document,
/// holding its blocks in order, so a later block may use what an earlier one declared.
///
/// Rules for samples: a block whose first line is `// Package.swift` is a manifest and is skipped,
/// and so is one whose first line starts with `// Add-on:` (it needs an add-on package, whose own
/// tests use the same code);
/// `import` lines are dropped, indented or not (the file imports what samples need); a block starting with
/// `extension` goes at file scope; every `let` at the left margin of a block is marked as used.
enum SampleExtractor {
    static func documentationFiles(root: URL) throws -> [URL] {
        var files = [root.appendingPathComponent("README.md")]
        for catalog in ["Sources/Courier/Courier.docc", "Sources/CourierTesting/CourierTesting.docc"] {
            let folder = root.appendingPathComponent(catalog)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
                .sorted()
            files += names.map { folder.appendingPathComponent($0) }
        }
        return files
    }

    static func generate(root: URL) throws -> String {
        var output = """
            // Generated from the README and the DocC articles by DocumentationSamplesTests: do not edit.
            // Update: COURIER_UPDATE_SAMPLES=1 swift test --filter DocumentationSamples
            // swift-format-ignore-file

            import Courier
            import CourierTesting
            import Foundation
            import Testing

            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #endif

            """
        var fileScope: [String] = []
        for file in try documentationFiles(root: root) {
            let blocks = try swiftBlocks(in: String(contentsOf: file, encoding: .utf8))
            guard !blocks.isEmpty else { continue }
            var body: [String] = []
            for (index, block) in blocks.enumerated() {
                if block.first?.hasPrefix("extension ") == true {
                    fileScope.append(
                        "// \(file.lastPathComponent), sample \(index + 1)\n" + block.joined(separator: "\n"))
                    continue
                }
                body.append("    // sample \(index + 1)")
                body += block.map { $0.isEmpty ? "" : "    " + $0 }
                body += block.compactMap(declaredName).map { "    _ = \($0)" }
            }
            let name = functionName(for: file)
            output += "\n/// The samples of \(file.lastPathComponent).\n@Sendable func \(name)() async throws {\n"
            output += body.joined(separator: "\n") + "\n}\n"
        }
        for block in fileScope { output += "\n" + block + "\n" }
        return output
    }

    /// The `swift` blocks of a Markdown document, without manifests and imports.
    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                // Imports are gone, and the blank lines after them.
                if let block = current?.drop(while: \.isEmpty), block.first != "// Package.swift",
                    block.first?.hasPrefix("// Add-on:") != true
                {
                    blocks.append(Array(block))
                }
                current = nil
            } else if current != nil, !line.trimmingCharacters(in: .whitespaces).hasPrefix("import ") {
                current?.append(line)
            }
        }
        return blocks
    }

    static func declaredName(_ line: String) -> String? {
        guard line.hasPrefix("let ") else { return nil }
        let name = line.dropFirst(4).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    private static func functionName(for file: URL) -> String {
        let base = file.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber }
        return base.prefix(1).lowercased() + base.dropFirst() + "Samples"
    }
}
