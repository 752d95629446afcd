import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Stubs")
struct StubTests {
    @Test("a delayed stub waits, then answers with the sample data")
    func delayed() async throws {
        let provider = Provider<SampleAPI>(stubClosure: Provider.delayedStub(0.05))
        let start = Date()
        let response = try await provider.request(.user("a"))
        #expect(Date().timeIntervalSince(start) >= 0.05)
        #expect(response.data == Fixture.data("user"))
        #expect(response.statusCode == 200)
        #expect(response.response == nil)  // .networkResponse has no headers, as in Moya
    }

    @Test("a stub runs the interceptor: adapters, validation and retries")
    func runsInterceptor() async throws {
        let calls = Locked(0)
        let provider = Provider<SampleAPI>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    let call = calls.withLock { count in
                        count += 1
                        return count
                    }
                    return .networkResponse(call == 1 ? 401 : 200, Data())
                })
            },
            stubClosure: Provider.immediatelyStub,
            interceptor: Interceptor(
                adapters: [
                    Adapter { request, _ in
                        var request = request
                        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
                        return request
                    }
                ],
                retriers: [Retrier { _, error, _ in error.response?.statusCode == 401 ? .retry : .doNotRetry }]))
        let response = try await provider.request(.user("a"))
        #expect(response.statusCode == 200)
        #expect(response.request?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(calls.value == 2)
    }

    @Test("a full HTTPURLResponse sample keeps its headers")
    func fullResponse() async throws {
        let http = HTTPURLResponse(
            url: URL(string: "https://x")!, statusCode: 201, httpVersion: nil, headerFields: ["X-Id": "7"])!
        let provider = Provider<SampleAPI>(
            endpointClosure: {
                Provider.defaultEndpointMapping(for: $0).replacing(sampleResponseClosure: {
                    .response(http, Data("ok".utf8))
                })
            },
            stubClosure: Provider.immediatelyStub)
        let response = try await provider.request(.user("a"))
        #expect(response.statusCode == 201)
        #expect(response.response?.value(forHTTPHeaderField: "X-Id") == "7")
    }

    @Test("a stubbed network error gives the same error as the network")
    func networkErrorMatchesNetwork() async throws {
        let stubbed = Provider<SampleAPI>(
            endpointClosure: {
                Provider.defaultEndpointMapping(for: $0).replacing(sampleResponseClosure: {
                    .networkError(URLError(.notConnectedToInternet))
                })
            },
            stubClosure: Provider.immediatelyStub)
        let scripted = ScriptedTransport(fallback: .failure(URLError(.notConnectedToInternet)))
        let network = Provider<SampleAPI>(transport: scripted)

        let errors = [
            await capture { try await stubbed.request(.user("a")) },
            await capture { try await network.request(.user("a")) },
        ]
        for error in errors {
            guard case .transport(let underlying, let request)? = error else {
                Issue.record("expected .transport, got \(String(describing: error))")
                continue
            }
            #expect((underlying as? TransportFailure)?.kind == .notConnectedToInternet)
            #expect(request.url?.path == "/v1/users/a")
        }
    }

    @Test("a stubbed 401 fails validation with the same error as the network")
    func statusMatchesNetwork() async throws {
        let stubbed = Provider<SampleAPI>(
            endpointClosure: {
                Provider.defaultEndpointMapping(for: $0).replacing(sampleResponseClosure: {
                    .networkResponse(401, Data())
                })
            },
            stubClosure: Provider.immediatelyStub)
        let network = Provider<SampleAPI>(transport: ScriptedTransport(fallback: .status(401)))
        for provider in [stubbed, network] {
            let error = await capture { try await provider.request(.user("a")) }
            guard case .statusCode(let response)? = error else {
                Issue.record("expected .statusCode, got \(String(describing: error))")
                continue
            }
            #expect(response.statusCode == 401)
        }
    }
}

/// The ``CourierError`` an operation throws, or `nil` when it succeeds.
func capture(_ operation: () async throws -> some Any) async -> CourierError? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error as? CourierError
    }
}
