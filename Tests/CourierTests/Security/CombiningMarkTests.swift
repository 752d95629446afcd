import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A quote, a line break or a separator followed by a combining mark is one character that
/// equals none of them, so character-based escaping (Foundation's `replacingOccurrences` on Linux
/// among it) lets it through, while a server, a shell or a log sees the scalar. Every escape that
/// guards a boundary works on scalars.
@Suite("Combining marks after separators")
struct CombiningMarkTests {
    static let hostile = "a\"\u{0301}; x=\"y\r\u{0301}\n\u{0301}Content-Type: text/evil"

    @Test("a multipart part's name and file name cannot break their header")
    func multipartHeader() throws {
        var form = MultipartFormData(boundary: "B")
        form.append(Data("v".utf8), name: Self.hostile, fileName: Self.hostile)
        let encoded = try form.encoded()
        let head = try #require(encoded.range(of: Data("\r\n\r\n".utf8)).map { encoded[..<$0.lowerBound] })
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.count == 2, "\(lines)")  // the boundary and one Content-Disposition line
        #expect(!head.contains(0x0A) || lines.count == 2)
        let disposition = try #require(lines.last)
        // Only the quotes that delimit the two values: name="…" and filename="…".
        #expect(disposition.unicodeScalars.filter { $0 == "\"" }.count == 4, "\(disposition)")
    }

    @Test("a cURL command quotes a value whose quote carries a combining mark")
    func curlQuoting() throws {
        var request = URLRequest(url: URL(string: "https://example.com/")!)
        request.setValue("x'\u{0301}; rm -rf ~; '", forHTTPHeaderField: "X-Note")
        let command = request.cURLDescription()
        let line = try #require(command.components(separatedBy: "\n").first { $0.contains("X-Note") })
        // Every quote the value brought is closed, escaped and reopened: '\''.
        let scalars = String(line.unicodeScalars.filter { $0 != "\u{0301}" })
        #expect(scalars.contains("x'\\''; rm -rf ~; '\\''"), "\(line)")
    }

    @Test("an event ID with a NUL followed by a combining mark is ignored")
    func eventID() throws {
        var parser = ServerSentEventParser()
        let events = try parser.parse(Data("id: a\u{0}\u{0301}b\ndata: x\n\n".utf8))
        #expect(events.count == 1)
        #expect(!parser.lastEventID.unicodeScalars.contains("\u{0}"))
    }

    @Test("an error's text hides a URL password followed by a combining mark")
    func errorText() {
        let error = CourierError.requestMapping("https://ann:LONGSECRETPW\u{0301}@bad host/")
        let text = error.localizedDescription + error.description
        #expect(Data(text.utf8).range(of: Data("LONGSECRETPW".utf8)) == nil, "\(text)")
    }
}
