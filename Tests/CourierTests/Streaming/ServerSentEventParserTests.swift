import Courier
import Foundation
import Testing

/// The WHATWG event-stream interpretation, case by case, whole and split at every byte. The cases
/// marked with a file come from web-platform-tests' `eventsource/` directory (the bytes its
/// `resources/message.py` handler sends, which ends a message with a blank line unless the case
/// asks for `newline=none`); the others cover what those files leave out.
@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The web-platform-tests file the case comes from, if any.
        let source: String?
        let stream: String
        let events: [ServerSentEvent]
        /// The last event ID once the stream is read.
        let lastEventID: String

        init(
            _ name: String, wpt source: String? = nil, _ stream: String, _ events: [ServerSentEvent],
            lastEventID: String? = nil
        ) {
            self.name = name
            self.source = source
            self.stream = stream
            self.events = events
            self.lastEventID = lastEventID ?? events.last?.lastEventID ?? ""
        }

        var testDescription: String { source.map { "\(name) (\($0))" } ?? name }
    }

    static let wptCases: [Case] = [
        Case(
            "data lines joined, empty data, the end", wpt: "event-data.any.js",
            "data:msg\ndata:msg\n\ndata:\n\ndata:end\n\n",
            [ServerSentEvent(data: "msg\nmsg"), ServerSentEvent(data: ""), ServerSentEvent(data: "end")]),
        Case(
            "a leading BOM is dropped", wpt: "format-bom.any.js", "\u{FEFF}data:1\n\n\u{FEFF}data:2\n\ndata:3\n\n",
            [ServerSentEvent(data: "1"), ServerSentEvent(data: "3")]),
        Case(
            "a second BOM spoils the first line", wpt: "format-bom-2.any.js",
            "\u{FEFF}\u{FEFF}data:1\n\ndata:2\n\ndata:3\n\n", [ServerSentEvent(data: "2"), ServerSentEvent(data: "3")]),
        Case(
            "comments anywhere, with CR, LF and CRLF", wpt: "format-comments.any.js",
            "data:1\r:\u{0}\n:\r\ndata:2\n:" + String(repeating: "x", count: 2_048) + "\rdata:3\n:data:fail\r:"
                + String(repeating: "x", count: 2_048) + "\ndata:4\n\n",
            [ServerSentEvent(data: "1\n2\n3\n4")]),
        Case(
            "an event without its blank line is dropped, its id too", wpt: "format-data-before-final-empty-line.any.js",
            "retry:1000\ndata:test1\n\nid:test\ndata:test2", [ServerSentEvent(data: "test1")], lastEventID: ""),
        Case(
            "data fields: empty, without a colon, then text", wpt: "format-field-data.any.js",
            "data:\n\ndata\ndata\n\ndata:test\n\n",
            [ServerSentEvent(data: ""), ServerSentEvent(data: "\n"), ServerSentEvent(data: "test")]),
        Case(
            "an event type", wpt: "format-field-event.any.js", "event:test\ndata:x\n\ndata:x\n\n",
            [ServerSentEvent(type: "test", data: "x"), ServerSentEvent(data: "x")]),
        Case(
            "an empty event type is message", wpt: "format-field-event-empty.any.js", "event: \ndata:data\n\n",
            [ServerSentEvent(data: "data")]),
        Case(
            "an id is carried by the event", wpt: "format-field-id.any.js", "id: 1\ndata: x\n\n",
            [ServerSentEvent(data: "x", lastEventID: "1")]),
        Case(
            "a non-ASCII id", wpt: "format-field-id-2.any.js", "id: €\ndata: x\n\n",
            [ServerSentEvent(data: "x", lastEventID: "€")]),
        Case(
            "the id persists, then changes", wpt: "format-field-id-3.window.js",
            "id: 1\ndata: 1\n\ndata: 2\n\nid: 2\ndata:3\n\ndata:4\n\n",
            [
                ServerSentEvent(data: "1", lastEventID: "1"), ServerSentEvent(data: "2", lastEventID: "1"),
                ServerSentEvent(data: "3", lastEventID: "2"), ServerSentEvent(data: "4", lastEventID: "2"),
            ]),
        Case(
            "an empty id resets it", wpt: "format-field-id-3.window.js", "id: 1\ndata: 1\n\nid: \ndata:2\n\ndata:3\n\n",
            [
                ServerSentEvent(data: "1", lastEventID: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3"),
            ]),
        Case(
            "an id without a colon resets it", wpt: "format-field-id-3.window.js",
            "id: 1\ndata: 1\n\nid\ndata:2\n\ndata:3\n\n",
            [
                ServerSentEvent(data: "1", lastEventID: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3"),
            ]),
        Case(
            "an id holding NUL is ignored", wpt: "format-field-id-null.window.js", "id: x\u{0}x\ndata: hello\n\n",
            [ServerSentEvent(data: "hello")]),
        Case(
            "an id of NUL alone is ignored, the earlier one kept", wpt: "format-field-id-null.window.js",
            "id: 1\ndata: a\n\nid: \u{0}\u{0}\ndata: hello\n\n",
            [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "hello", lastEventID: "1")]),
        Case(
            "field names are case-sensitive; NUL stays in data; mixed line ends", wpt: "format-field-parsing.any.js",
            "data:\u{0}\ndata:  2\rData:1\ndata\u{0}:2\ndata:1\r\u{0}data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n\n",
            [ServerSentEvent(data: "\u{0}\n 2\n1\n3\n\n4")]),
        Case(
            "unknown fields and text lines are ignored", wpt: "format-field-unknown.any.js",
            "data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test\n\n",
            [ServerSentEvent(data: "test\n\ntest")]),
        Case(
            "one leading space is removed, a tab is kept", wpt: "format-leading-space.any.js",
            "data:\ttest\rdata: \ndata:test\n\n", [ServerSentEvent(data: "\ttest\n\ntest")]),
        Case(
            "CRLF, LF and CR line ends", wpt: "format-newlines.any.js", "data:test\r\ndata\ndata:test\r\n\r",
            [ServerSentEvent(data: "test\n\ntest")]),
        Case("a NUL in data", wpt: "format-null-character.any.js", "data:\u{0}\n\n", [ServerSentEvent(data: "\u{0}")]),
        Case("UTF-8 always", wpt: "format-utf-8.any.js", "data:ok€\n\n", [ServerSentEvent(data: "ok€")]),
    ]

    static let moreCases: [Case] = [
        Case("an id-only block moves the last event ID without an event", "id: 9\n\n", [], lastEventID: "9"),
        Case("no data, no event", "event: ping\n\n\n\n", []),
        Case("only one space after the colon is removed", "data:  two\n\n", [ServerSentEvent(data: " two")]),
        Case("colons after the first stay in the value", "data: a:b: c\n\n", [ServerSentEvent(data: "a:b: c")]),
        Case("an unterminated event at the end is discarded", "data: a\n\ndata: b\n", [ServerSentEvent(data: "a")]),
    ]

    static let cases = wptCases + moreCases

    /// The events of `chunks`, and the last event ID after them.
    private func parse(_ chunks: [Data]) throws -> (events: [ServerSentEvent], lastEventID: String) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks { try parser.parse(chunk, into: &events) }
        return (events, parser.lastEventID)
    }

    @Test("whole stream", arguments: cases)
    func whole(_ testCase: Case) throws {
        let parsed = try parse([Data(testCase.stream.utf8)])
        #expect(parsed.events == testCase.events)
        #expect(parsed.lastEventID == testCase.lastEventID)
    }

    @Test("split at every byte, and one byte at a time", arguments: cases)
    func split(_ testCase: Case) throws {
        let bytes = Data(testCase.stream.utf8)
        for cut in 0...bytes.count {
            let parsed = try parse([bytes.prefix(cut), bytes.dropFirst(cut)])
            #expect(parsed.events == testCase.events, "cut at \(cut)")
            #expect(parsed.lastEventID == testCase.lastEventID, "cut at \(cut)")
        }
        #expect(try parse(bytes.map { Data([$0]) }).events == testCase.events)
    }

    @Test("a UTF-16 byte order mark is not honoured (format-bom-utf-16.any.js)")
    func utf16() throws {
        var parser = ServerSentEventParser()
        let events = try parser.parse(Data([0xFF, 0xFE]) + Data("data:x\n\n".utf8))
        #expect(events.isEmpty)
    }

    @Test("retry takes ASCII digits only, in milliseconds (format-field-retry*.any.js)")
    func retry() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("retry:3000\nretry:1000x\ndata:x\n\n".utf8))
        #expect(parser.retryMilliseconds == 3000)
        _ = try parser.parse(Data("retry: 1.5\nretry: -1\nretry: 10s\nretry:\nretry\n\n".utf8))
        #expect(parser.retryMilliseconds == 3000)
        _ = try parser.parse(Data("retry:0\n\n".utf8))
        #expect(parser.retryMilliseconds == 0)
    }

    @Test("invalid UTF-8 becomes replacement characters, never a crash")
    func invalidUTF8() throws {
        var parser = ServerSentEventParser()
        let events = try parser.parse(Data([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0xC3, 0x0A, 0x0A]))
        #expect(events == [ServerSentEvent(data: "\u{FFFD}\u{FFFD}")])
    }

    @Test("a line longer than the limit is an error naming it, after the events before it; never cut")
    func longLine() throws {
        var parser = ServerSentEventParser(limits: StreamingLimits(maximumLineLength: 16))
        var events: [ServerSentEvent] = []
        let stream = "data: ok\n\ndata: " + String(repeating: "x", count: 1_000) + "\n\n"
        #expect(throws: StreamingError.lineTooLong(limit: 16)) {
            try parser.parse(Data(stream.utf8), into: &events)
        }
        #expect(events == [ServerSentEvent(data: "ok")])
        // The parser stays failed: nothing after the long line is taken for a new event.
        #expect(throws: StreamingError.lineTooLong(limit: 16)) { try parser.parse(Data("data: b\n\n".utf8)) }
    }

    @Test("a line at the limit exactly is whole")
    func lineAtLimit() throws {
        var parser = ServerSentEventParser(limits: StreamingLimits(maximumLineLength: 16))
        #expect(try parser.parse(Data("data: 0123456789\n\n".utf8)) == [ServerSentEvent(data: "0123456789")])
    }

    @Test("event data growing past the limit without a blank line is an error, memory stays bounded")
    func eventTooLarge() throws {
        var parser = ServerSentEventParser(limits: StreamingLimits(maximumEventLength: 1_000))
        let line = Data(("data: " + String(repeating: "y", count: 99) + "\n").utf8)
        var lines = 0
        let error = #expect(throws: StreamingError.self) {
            while lines < 100_000 {
                _ = try parser.parse(line)
                lines += 1
            }
        }
        #expect(error == .eventTooLarge(limit: 1_000))
        #expect(lines == 10)
        // An event of exactly the limit (ten lines of 99 bytes and nine line feeds) passes.
        var exact = ServerSentEventParser(limits: StreamingLimits(maximumEventLength: 999))
        let event = try exact.parse(
            Data((String(repeating: "data: " + String(repeating: "y", count: 99) + "\n", count: 10) + "\n").utf8))
        #expect(event.first?.data.utf8.count == 999)
    }

    @Test("the last event ID moves only when a blank line dispatches: a cut mid-event keeps the one before")
    func idAtDispatchOnly() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("id: 5\ndata: whole\n\nid: 6\ndata: to".utf8))
        #expect(parser.lastEventID == "5")
        var resumed = ServerSentEventParser(lastEventID: "5")
        #expect(try resumed.parse(Data("data: x\n\n".utf8)) == [ServerSentEvent(data: "x", lastEventID: "5")])
    }

    @Test("the description never shows the data")
    func description() {
        #expect("\(ServerSentEvent(type: "token", data: "secret"))" == "token (6 bytes)")
    }
}
