import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``HARReplayer`` answers from a recorded text: the bytes of the text in the entry's
/// charset, checked against the recorded size; and which entries an unmatched request names.
@Suite("HAR replayed text and nearest entries")
struct HARReplayTextTests {
    private struct Page: TargetType {
        var baseURL: URL
        var path: String
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    private static let host = URL(string: "https://text.example.invalid")!

    /// A file of one entry per `(path, content type, text, size)`, written by another tool.
    private static func file(_ entries: [(path: String, type: String, text: String, size: Int)]) throws -> URL {
        let items = try entries.map { entry -> String in
            let text = String(decoding: try JSONEncoder().encode(entry.text), as: UTF8.self)
            let type = String(decoding: try JSONEncoder().encode(entry.type), as: UTF8.self)
            return #"""
                {"startedDateTime": "2026-11-27T10:00:00.000Z", "time": 1,
                 "request": {"method": "GET", "url": "\#(host.absoluteString)\#(entry.path)", "headers": []},
                 "response": {"status": 200, "headers": [{"name": "Content-Type", "value": \#(type)}],
                              "content": {"size": \#(entry.size), "mimeType": \#(type), "text": \#(text)}}}
                """#
        }
        let url = try Scratch.folder().appendingPathComponent("text.har")
        let creator = #""creator": {"name": "probe", "version": "1"}"#
        let log = #"{"log": {"version": "1.2", \#(creator), "entries": [\#(items.joined(separator: ","))]}}"#
        try Data(log.utf8).write(to: url)
        return url
    }

    private static func replay(_ path: String, from file: URL) async throws -> Response {
        try await Provider<Page>(transport: try HARReplayer(file: file)).request(Page(baseURL: host, path: path))
    }

    @Test(
        "a text decoded from its charset is answered in that charset, under the recorded header",
        arguments: [
            ("text/plain; charset=iso-8859-1", String.Encoding.isoLatin1),
            ("text/plain; charset=\"ISO-8859-1\"", .isoLatin1),
            ("text/html;charset=windows-1252", .windowsCP1252),
            ("text/plain; charset=utf-16le", .utf16LittleEndian),
            ("application/json", .utf8),
        ])
    func textInItsCharset(type: String, encoding: String.Encoding) async throws {
        let text = "Grüß Köln!"
        let bytes = try #require(text.data(using: encoding))
        let file = try Self.file([("/page", type, text, bytes.count)])
        let response = try await Self.replay("/page", from: file)
        #expect(response.data == bytes)
        #expect(response.headerFields["Content-Type"] == type)
    }

    @Test("a size that disagrees with the text in its charset is an error, not an answer")
    func sizeDisagrees() async throws {
        let text = "Grüß Köln!"
        // 10 bytes in ISO-8859-1; 13 is the text's length in UTF-8.
        for size in [13, 9] {
            let file = try Self.file([("/page", "text/plain; charset=iso-8859-1", text, size)])
            let error = await #expect(throws: CourierError.self) { try await Self.replay("/page", from: file) }
            let replay = try #require(error?.underlyingError as? HARReplayError)
            #expect(
                replay
                    == .bodySizeMismatch(
                        request: "GET \(Self.host.absoluteString)/page", size: size, bytes: 10, charset: "iso-8859-1"))
            #expect(replay.description.contains("iso-8859-1"))
        }
    }

    @Test("a text its charset cannot hold, or a charset Courier does not know, is an error")
    func notEncodable() async throws {
        for (type, charset) in [
            ("text/plain; charset=iso-8859-1", "iso-8859-1"), ("text/plain; charset=x-klingon", "x-klingon"),
        ] {
            let file = try Self.file([("/page", type, "price: 5 €", 10)])
            let error = await #expect(throws: CourierError.self) { try await Self.replay("/page", from: file) }
            let replay = try #require(error?.underlyingError as? HARReplayError)
            #expect(replay == .textNotEncodable(request: "GET \(Self.host.absoluteString)/page", charset: charset))
        }
    }

    @Test("Courier's own recording of a body labelled with another charset replays byte for byte")
    func ownRecordingRoundTrip() async throws {
        let utf8Bytes = Data("café".utf8)  // valid UTF-8, so the recorder keeps it as text
        let latin1Bytes = try #require("café".data(using: .isoLatin1))  // not UTF-8: kept in Base64
        let server = try LoopbackServer { request in
            ServerReply(
                headers: ["Content-Type": "text/plain; charset=iso-8859-1"],
                body: request.path.hasPrefix("/utf8") ? utf8Bytes : latin1Bytes)
        }
        let har = try Scratch.folder().appendingPathComponent("own.har")
        let recorder = Provider<Page>(transport: HARRecorder(recording: URLSessionTransport(), to: har))
        #expect(try await recorder.request(Page(baseURL: server.baseURL, path: "/utf8")).data == utf8Bytes)
        #expect(try await recorder.request(Page(baseURL: server.baseURL, path: "/latin1")).data == latin1Bytes)
        server.stop()
        let replay = Provider<Page>(transport: try HARReplayer(file: har))
        #expect(try await replay.request(Page(baseURL: server.baseURL, path: "/utf8")).data == utf8Bytes)
        #expect(try await replay.request(Page(baseURL: server.baseURL, path: "/latin1")).data == latin1Bytes)
    }

    @Test("an entry that differs only by having been played is the nearest, ahead of other URLs")
    func playedEntryIsNearest() async throws {
        let others = (1...4).map { ("/other\($0)", "text/plain", "other", 5) }
        let file = try Self.file(others + [("/page", "text/plain", "page", 4)])
        let provider = Provider<Page>(transport: try HARReplayer(file: file))
        #expect(try await provider.request(Page(baseURL: Self.host, path: "/page")).data == Data("page".utf8))
        let error = await #expect(throws: CourierError.self) {
            try await provider.request(Page(baseURL: Self.host, path: "/page"))
        }
        let replay = try #require(error?.underlyingError as? HARReplayError)
        guard case .unmatched(_, let nearest) = replay else {
            Issue.record("not unmatched: \(replay)")
            return
        }
        #expect(nearest.count == 3)
        #expect(nearest.first == "#5 GET \(Self.host.absoluteString)/page: differs in already played")
        #expect(nearest.dropFirst().allSatisfy { $0.contains("differs in URL") })
    }
}
