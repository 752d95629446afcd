import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite {
    /// The stub transport held to the transport contract: each test is the `TransportConformance`
    /// case of its name, as far as it applies without a server. The cases about what a server sees
    /// or does (request bodies on the wire, redirects, server faults, framing, gzip, interim
    /// responses) have no counterpart: a stub answers with its sample and never reaches a server.
    /// Nested in the temporary-files suite: the download case writes one.
    @Suite("Stub transport conformance")
    struct StubTransportConformanceTests {
        private static let url = URL(string: "http://127.0.0.1:9/stub")!

        private func stub(
            _ sample: EndpointSampleResponse, behavior: StubBehavior = .immediate
        ) -> StubTransport {
            StubTransport(behavior: behavior) { sample }
        }

        private func head(_ status: Int, _ fields: [String: String] = [:]) -> HTTPURLResponse {
            HTTPURLResponse(url: Self.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
        }

        @Test("statusCodes: every status code is returned as a response, never thrown")
        func statusCodes() async throws {
            for status in [200, 201, 299, 404, 418, 500, 503, 599] {
                let response = try await stub(.networkResponse(status, Data())).send(
                    TransportRequest(urlRequest: URLRequest(url: Self.url)))
                #expect(response.statusCode == status)
            }
        }

        @Test("headerNamesCaseInsensitive / repeatedResponseHeader: a sample's head reaches the caller whole")
        func headers() async throws {
            let sample = EndpointSampleResponse.response(
                head(200, ["X-Trace": "a, b", "Content-Type": "text/plain"]), Data())
            let response = try await stub(sample).send(TransportRequest(urlRequest: URLRequest(url: Self.url)))
            #expect(response.headerFields["x-trace"] == "a, b")
            #expect(response.response?.value(forHTTPHeaderField: "content-type") == "text/plain")
        }

        @Test("smallAndEmptyBodies / largeBody: bodies arrive byte for byte")
        func bodies() async throws {
            for size in [0, 11, 8 << 20] {
                let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
                let response = try await stub(.networkResponse(200, body)).send(
                    TransportRequest(urlRequest: URLRequest(url: Self.url)))
                #expect(response.data == body)
            }
        }

        @Test("downloadToFile and progress: a download is a temporary file, progress ends at the totals")
        func downloadAndProgress() async throws {
            let body = Data(repeating: 5, count: 100_000)
            let log = Locked<[TransferProgress]>([])
            var request = URLRequest(url: Self.url)
            request.httpMethod = "POST"
            request.httpBody = Data("up".utf8)
            let response = try await stub(.networkResponse(200, body)).send(
                TransportRequest(
                    urlRequest: request, delivery: .file, progress: { report in log.withLock { $0.append(report) } })
            )
            let file = try #require(response.fileURL)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try Data(contentsOf: file) == body)
            // Unlike a network transport, a stub keeps the sample as the data too, as a Moya stub
            // does, so that a ported test of a stubbed download still sees it.
            #expect(response.data == body)
            #expect(response.response?.statusCode == 200)
            let reports = log.value
            let upload = reports.first { $0.direction == .upload }
            #expect(upload?.completedBytes == 2)
            #expect(upload?.expectedBytes == 2)
            #expect(reports.last?.completedBytes == 100_000)
            #expect(reports.last?.expectedBytes == 100_000)
        }

        @Test("streamedHeadBeforeBody: a streamed request gets the sample's head and whole body")
        func streamed() async throws {
            let body = Data("streamed".utf8)
            let streamed = try await stub(.response(head(206), body)).send(
                TransportRequest(urlRequest: URLRequest(url: Self.url), delivery: .stream))
            #expect(streamed.statusCode == 206)
            #expect(try await streamed.stream?.collect(upTo: 1 << 20) == body)
        }

        @Test("stallTimesOut: a stub slower than the timeout times out at the timeout, not before")
        func timeout() async throws {
            let started = DispatchTime.now()
            let error = await #expect(throws: TransportFailure.self) {
                try await stub(.networkResponse(200, Data()), behavior: .delayed(seconds: 5)).send(
                    TransportRequest(urlRequest: URLRequest(url: Self.url), timeout: 0.2))
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            #expect(error?.kind == .timedOut)
            #expect(elapsed >= 0.2 && elapsed < 2)
        }

        @Test("cancelBeforeHead: cancelling a delayed stub ends it within the conformance bound")
        func cancellation() async throws {
            let transport = stub(.networkResponse(200, Data()), behavior: .delayed(seconds: 30))
            let task = Task { try await transport.send(TransportRequest(urlRequest: URLRequest(url: Self.url))) }
            try await Task.sleep(nanoseconds: 50_000_000)
            let cancelled = DispatchTime.now()
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - cancelled.uptimeNanoseconds) / 1e9
            #expect(elapsed <= TransportConformance { transport }.cancellationBound)
        }

        @Test("connectionRefused and the other faults: a sample error is thrown as given")
        func faults() async throws {
            await #expect(throws: URLError(.cannotConnectToHost)) {
                try await stub(.networkError(URLError(.cannotConnectToHost))).send(
                    TransportRequest(urlRequest: URLRequest(url: Self.url)))
            }
        }
    }
}
