import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// A request body answered as soon as it arrived, on a connection the server then closes: the
    /// window in which AsyncHTTPClient 1.37's delegate API, ending a streamed body one event-loop
    /// turn after its bytes, made the pool trap ("A connection that we don't know was released").
    /// Such bodies take the async API, which writes a body and its end at once.
    @Suite("AsyncHTTPClient: a body answered at once on a closing connection")
    struct EarlyAnswerTests {
        @Test("4,000 bodies answered at once, each server stopped after: nothing traps (1 in ~1,800 did)")
        func bodiesAnsweredAtOnce() async throws {
            let transport = AsyncHTTPClientTransport()
            let body = Data(repeating: 42, count: 1000)
            var answered = 0
            for _ in 0..<4000 {
                let server = try LoopbackServer { request in
                    request.path == "/moved" ? ServerReply(status: 307, headers: ["Location": "/end"]) : .text("end")
                }
                var statuses: [Int] = []
                for path in ["moved", "end"] {
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/\(path)")!)
                    request.httpMethod = "POST"
                    request.httpBody = body
                    statuses.append(try await transport.send(TransportRequest(urlRequest: request)).statusCode)
                }
                if statuses == [307, 200], server.requests.allSatisfy({ $0.body == body }) { answered += 1 }
                server.stop()
            }
            #expect(answered == 4000)
        }
    }
}
