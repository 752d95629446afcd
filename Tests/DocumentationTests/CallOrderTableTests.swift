import CourierTesting
import Foundation
import Testing

/// The call-order table stands in the README and in the call-order article: the two must be the
/// same, word for word, and the conformance suite's size the READMEs give must be its own.
@Suite("Call-order table")
struct CallOrderTableTests {
    static let root = DocumentationSamplesTests.root

    /// The Markdown table that starts with the call order's header, in the file at `path`.
    static func table(in path: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "| Step | When | What runs |") else { return [] }
        return Array(lines[start...].prefix { $0.hasPrefix("|") })
    }

    @Test("the README's table is the call-order article's, and names every hook and stage")
    func sameTable() throws {
        let readme = try Self.table(in: "README.md")
        let article = try Self.table(in: "Sources/Courier/Courier.docc/CallOrder.md")

        #expect(readme.count == 14)
        #expect(readme == article)
        let text = readme.joined(separator: "\n")
        for name in [
            "endpointClosure", "requestClosure", "prepare", "willSend", "adapt", "willTransmit", "cookie jar",
            "HTTPCache", "ResiliencePolicy", "redirect", "Set-Cookie", "validationType", "didCompleteAttempt",
            "retry", "didReceive", "process", "completion",
        ] {
            #expect(text.contains(name), "the table does not name \(name)")
        }
    }

    @Test("the READMEs give the conformance suite's real number of cases")
    func conformanceCount() throws {
        let count = TransportConformance.Case.allCases.count
        for path in ["README.md", "Integrations/CourierAsyncHTTPClient/README.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains("\(count) cases"), "\(path) does not say \(count) cases")
            for stale in (20..<60) where stale != count {
                #expect(
                    !text.contains(" \(stale) cases)") && !text.contains("runs \(stale) cases"), "\(path): \(stale)")
            }
        }
    }
}
