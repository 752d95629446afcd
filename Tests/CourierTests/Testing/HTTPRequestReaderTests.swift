import Courier
import CourierTesting
import Foundation
import Testing

@Suite("HTTPRequestReader")
struct HTTPRequestReaderTests {
    /// A reader over `chunks`, handed out one read at a time.
    private func reader(_ chunks: [String]) -> HTTPRequestReader {
        let queue = Locked(chunks.map { Data($0.utf8) })
        return HTTPRequestReader(read: { queue.withLock { $0.isEmpty ? Data() : $0.removeFirst() } })
    }

    private func requests(_ chunks: [String]) -> [String] {
        var reader = reader(chunks)
        var seen: [String] = []
        while true {
            switch reader.next() {
            case .request(let request):
                seen.append("\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))")
            case .invalid(let status): return seen + ["invalid \(status)"]
            case .closed: return seen
            }
        }
    }

    @Test("keep-alive requests, bodies split across reads, chunked bodies")
    func valid() {
        #expect(
            requests([
                "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Len", "gth: 5\r\n\r\nhel", "lo",
                "PUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n",
            ]) == ["GET /a ", "POST /b hello", "PUT /c abcde"])
    }

    @Test(
        "malformed input is refused, never a crash",
        arguments: [
            ("NONSENSE\r\n\r\n", "invalid 400"),
            ("GET / HTTP/1.1\r\nno colon\r\n\r\n", "invalid 400"),
            ("POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n", "invalid 400"),
            ("POST / HTTP/1.1\r\nContent-Length: banana\r\n\r\n", "invalid 400"),
            ("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "invalid 400"),
            ("GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 10_000), "invalid 431"),
        ])
    func invalid(input: String, expected: String) {
        #expect(requests([input]) == [expected])
    }

    @Test("a peer that stops in the middle of a request closes the reader")
    func truncated() {
        #expect(requests(["POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"]).isEmpty)
        #expect(requests(["GET / HTT"]).isEmpty)
    }
}
