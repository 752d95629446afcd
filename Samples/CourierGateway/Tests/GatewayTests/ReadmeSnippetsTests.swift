import Foundation
import Testing

/// Keeps Readme+<add-on>.swift, one file per add-on README, in step with the README: each file
/// holds the README's Swift snippets, in functions, with exactly the imports the README shows, so
/// that this test target (which depends on the add-ons by path, as a user's package does) compiles
/// them as a user copying them would. Manifest fragments (`.package(…)`, `.target(…)`) are
/// checked by this package's own Package.swift instead.
///
/// After editing a README: `COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets`.
@Suite("README snippets of the add-ons")
struct ReadmeSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let addOns = ["CourierAsyncHTTPClient", "CourierCombine", "CourierObservability", "CourierOpenAPI"]

    @Test("each add-on README's snippets are compiled as written", arguments: addOns)
    func current(_ addOn: String) throws {
        let readme = try String(
            contentsOf: Self.root.appendingPathComponent("Integrations/\(addOn)/README.md"), encoding: .utf8)
        let expected = Self.generate(addOn, readme: readme)
        let file = Self.root.appendingPathComponent("Samples/CourierGateway/Tests/GatewayTests/Readme+\(addOn).swift")
        if ProcessInfo.processInfo.environment["COURIER_UPDATE_SAMPLES"] == "1" {
            try expected.write(to: file, atomically: true, encoding: .utf8)
        }
        let current = try String(contentsOf: file, encoding: .utf8)
        #expect(current == expected, "README changed: COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets")
    }

    @Test("every add-on has its README here")
    func coverage() throws {
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Integrations").path)
        #expect(folders.filter { !$0.hasPrefix(".") }.sorted() == Self.addOns)
    }

    /// What a README's snippets take from their reader that differs from one README to another,
    /// declared at the start of each of its functions (the rest is in ReadmePrelude.swift).
    static let contexts = ["CourierOpenAPI": ["let provider = Provider<OpenAPIOperation>()"]]

    /// The Swift file for `addOn`'s README.
    static func generate(_ addOn: String, readme: String) -> String {
        let blocks = swiftBlocks(readme).filter { block in
            !block.contains { $0.hasPrefix(".package(") || $0.hasPrefix(".target(") }
        }
        var imports: [String] = []
        var functions: [String] = []
        for (index, block) in blocks.enumerated() {
            // A declaration (an extension of the reader's API) stays at the file's top level.
            if block.contains(where: { $0.hasPrefix("extension ") }) {
                functions.append(block.joined(separator: "\n"))
                continue
            }
            var body = (contexts[addOn] ?? []).map { "    " + $0 }
            for line in block {
                if line.hasPrefix("import ") {
                    let module = String(line.dropFirst("import ".count).prefix { !$0.isWhitespace })
                    if !imports.contains(module) { imports.append(module) }
                } else {
                    body.append(line.isEmpty ? "" : "    " + line)
                }
            }
            // A `let` at a snippet's left margin is its result: marked as used.
            body += block.compactMap(declaredName).map { "    _ = \($0)" }
            let name = "readme\(addOn.dropFirst("Courier".count))\(index + 1)"
            functions.append("@Sendable func \(name)() async throws {\n" + body.joined(separator: "\n") + "\n}")
        }
        let importLines = imports.map { module in
            // Combine is Apple's; on Linux its README says to import OpenCombine instead.
            module == "Combine"
                ? "#if canImport(Combine)\n    import Combine\n#else\n    import OpenCombine\n#endif"
                : "import \(module)"
        }
        return """
            // Generated from Integrations/\(addOn)/README.md by ReadmeSnippetsTests: do not edit.
            // Update: COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets
            // swift-format-ignore-file

            \(importLines.joined(separator: "\n"))

            \(functions.joined(separator: "\n\n"))

            """
    }

    /// The name a line declares with `let` at the left margin, if it does.
    static func declaredName(_ line: String) -> String? {
        guard line.hasPrefix("let ") else { return nil }
        let name = line.dropFirst(4).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    /// The lines of each ```swift block.
    static func swiftBlocks(_ markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if line.hasPrefix("```"), let block = current {
                blocks.append(block)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
