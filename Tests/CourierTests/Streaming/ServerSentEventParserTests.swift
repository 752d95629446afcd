import Courier
import Foundation
import Testing

/// The WHATWG event-stream interpretation, case by case, whole and split at every byte.
@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let stream: String
        let events: [ServerSentEvent]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "one message", stream: "data: hello\n\n", events: [ServerSentEvent(data: "hello")]),
        Case(
            name: "multi-line data joined by LF", stream: "data: a\ndata: b\ndata:c\n\n",
            events: [ServerSentEvent(data: "a\nb\nc")]),
        Case(
            name: "CRLF and CR line ends", stream: "data: a\r\ndata: b\r\rdata: c\r\n\r\n",
            events: [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c")]),
        Case(name: "a leading BOM is dropped", stream: "\u{FEFF}data: x\n\n", events: [ServerSentEvent(data: "x")]),
        Case(
            name: "a second BOM is part of the field name", stream: "\u{FEFF}\u{FEFF}data: x\n\n", events: []),
        Case(
            name: "comments are skipped", stream: ": keep-alive\ndata: x\n: more\n\n",
            events: [ServerSentEvent(data: "x")]),
        Case(
            name: "event type, then back to message", stream: "event: add\ndata: 1\n\ndata: 2\n\n",
            events: [ServerSentEvent(type: "add", data: "1"), ServerSentEvent(data: "2")]),
        Case(
            name: "id persists to later events", stream: "id: 7\ndata: a\n\ndata: b\n\n",
            events: [ServerSentEvent(data: "a", lastEventID: "7"), ServerSentEvent(data: "b", lastEventID: "7")]),
        Case(
            name: "an id with NUL is ignored", stream: "id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\n",
            events: [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1")]),
        Case(
            name: "an empty id resets it", stream: "id: 1\ndata: a\n\nid\ndata: b\n\n",
            events: [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "")]),
        Case(name: "no data, no event", stream: "event: ping\n\n\n\n", events: []),
        Case(
            name: "an empty data field dispatches an empty event", stream: "data\n\n",
            events: [ServerSentEvent(data: "")]),
        Case(
            name: "only one space after the colon is removed", stream: "data:  two\n\n",
            events: [ServerSentEvent(data: " two")]),
        Case(
            name: "a field without a colon has an empty value", stream: "data\ndata\n\n",
            events: [ServerSentEvent(data: "\n")]),
        Case(name: "unknown fields are ignored", stream: "foo: bar\ndata: x\n\n", events: [ServerSentEvent(data: "x")]),
        Case(name: "field names are case-sensitive", stream: "Data: x\n\n", events: []),
        Case(
            name: "an unterminated event at the end is discarded", stream: "data: a\n\ndata: b\n",
            events: [ServerSentEvent(data: "a")]),
        Case(name: "UTF-8 data", stream: "data: héllo ✓ 🚀\n\n", events: [ServerSentEvent(data: "héllo ✓ 🚀")]),
        Case(
            name: "colons after the first stay in the value", stream: "data: a:b: c\n\n",
            events: [ServerSentEvent(data: "a:b: c")]),
    ]

    private func parse(_ chunks: [Data]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return chunks.flatMap { parser.parse($0) }
    }

    @Test("whole stream", arguments: cases)
    func whole(_ testCase: Case) {
        #expect(parse([Data(testCase.stream.utf8)]) == testCase.events)
    }

    @Test("split at every byte, and one byte at a time", arguments: cases)
    func split(_ testCase: Case) {
        let bytes = Data(testCase.stream.utf8)
        for cut in 0...bytes.count {
            #expect(parse([bytes.prefix(cut), bytes.dropFirst(cut)]) == testCase.events, "cut at \(cut)")
        }
        #expect(parse(bytes.map { Data([$0]) }) == testCase.events)
    }

    @Test("retry takes ASCII digits only, in milliseconds")
    func retry() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Data("retry: 3000\n\n".utf8))
        #expect(parser.retryMilliseconds == 3000)
        _ = parser.parse(Data("retry: 1.5\nretry: -1\nretry: 10s\nretry:\n\n".utf8))
        #expect(parser.retryMilliseconds == 3000)
    }

    @Test("invalid UTF-8 becomes replacement characters, never a crash")
    func invalidUTF8() {
        var parser = ServerSentEventParser()
        let events = parser.parse(Data([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0xC3, 0x0A, 0x0A]))
        #expect(events == [ServerSentEvent(data: "\u{FFFD}\u{FFFD}")])
    }

    @Test("a line longer than the limit is cut, so memory stays bounded")
    func longLine() {
        var parser = ServerSentEventParser(maximumLineLength: 16)
        let events = parser.parse(Data(("data: " + String(repeating: "x", count: 1_000) + "\n\n").utf8))
        #expect(events == [ServerSentEvent(data: String(repeating: "x", count: 10))])
    }

    @Test("the description never shows the data")
    func description() {
        #expect("\(ServerSentEvent(type: "token", data: "secret"))" == "token (6 bytes)")
    }
}
