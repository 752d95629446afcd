import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Moya's names compile and behave as Courier's.
///
/// The exercises live in a deprecated extension, where using deprecated names does not warn (CI
/// builds tests with warnings as errors), and the tests reach them through a protocol, which does
/// not warn either (Swift Testing refuses deprecated tests). The fix-its are checked by `.ci/run`,
/// which compiles a Moya-style file.
@Suite("Moya compatibility")
struct MoyaCompatibilityTests: MoyaNamesExercise {
    @Test("MoyaProvider and MoyaError are Provider and CourierError")
    func testProviderAndError() async throws {
        try await (self as any MoyaNamesExercise).providerAndError()
    }

    @Test("Moya's closure type names fit Provider's init")
    func testClosureTypes() async throws {
        try await (self as any MoyaNamesExercise).closureTypes()
    }

    @Test("a Moya 15 multipart task of parts sends those parts")
    func testMultipartParts() async throws {
        try await (self as any MoyaNamesExercise).multipartParts()
    }

    @Test("a composite multipart task of parts puts its parameters in the query")
    func testCompositeMultipart() async throws {
        try await (self as any MoyaNamesExercise).compositeMultipart()
    }

    @Test("a Moya-style request closure reports a request, a failure, or nothing before a cancel")
    func testCallbackRequestMapping() async throws {
        try await (self as any MoyaNamesExercise).callbackRequestMapping()
    }

    @Test("inflightRequests lists the shared request and its callers")
    func testInflightRequests() async throws {
        try await (self as any MoyaNamesExercise).inflightRequests()
    }

    @Test("URL(target:) is the target's url")
    func testUrlOfTarget() {
        (self as any MoyaNamesExercise).urlOfTarget()
    }
}

/// What the deprecated extension implements.
protocol MoyaNamesExercise {
    func providerAndError() async throws
    func closureTypes() async throws
    func multipartParts() async throws
    func compositeMultipart() async throws
    func callbackRequestMapping() async throws
    func inflightRequests() async throws
    func urlOfTarget()
}

@available(*, deprecated, message: "Exercises Moya's deprecated names.")
extension MoyaCompatibilityTests {
    func providerAndError() async throws {
        let provider = MoyaProvider<SampleAPI>(stubClosure: MoyaProvider<SampleAPI>.immediatelyStub)
        let courier: Provider<SampleAPI> = provider
        let response = try await courier.request(.user("ann"))
        #expect(response.statusCode == 200)
        let error: MoyaError = .cancelled
        #expect(error.isCancellation)
    }

    func closureTypes() async throws {
        let endpoint: Provider<SampleAPI>.EndpointClosure = { target in
            Provider<SampleAPI>.defaultEndpointMapping(for: target).adding(newHTTPHeaderFields: ["X-Moya": "1"])
        }
        let request: Provider<SampleAPI>.RequestClosure = Provider<SampleAPI>.defaultRequestMapping
        let stub: Provider<SampleAPI>.StubClosure = Provider<SampleAPI>.immediatelyStub
        let provider = Provider<SampleAPI>(endpointClosure: endpoint, requestClosure: request, stubClosure: stub)
        let completed = TestBox<Result<Response, CourierError>?>(nil)
        let completion: Provider<SampleAPI>.Completion = { completed.value = $0 }
        let progress: Provider<SampleAPI>.ProgressBlock = { _ in }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            provider.request(.user("ann"), callbackQueue: .global(), progress: progress) { result in
                completion(result)
                done.resume()
            }
        }
        let response = try #require(try completed.value?.get())
        #expect(response.request?.value(forHTTPHeaderField: "X-Moya") == "1")
    }

    func multipartParts() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 201) }
        let parts = [
            MultipartFormBodyPart(provider: .data(Data("Ann".utf8)), name: "author"),
            MultipartFormBodyPart(
                provider: .data(Data("{}".utf8)), name: "meta", fileName: "m.json", mimeType: "application/json"),
        ]
        let target = TransferTarget(baseURL: server.baseURL, path: "/forms", task: .uploadMultipart(parts))

        _ = try await Provider<TransferTarget>().request(target)

        let received = try #require(server.requests.first)
        let sent = try #require(MultipartParser.parse(received.body, contentType: received.header("Content-Type")))
        #expect(sent.map { String(decoding: $0.body, as: UTF8.self) } == ["Ann", "{}"])
        #expect(sent.last?.headers["Content-Type"] == "application/json")
    }

    func compositeMultipart() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 201) }
        let parts = [MultipartFormBodyPart(content: .data(Data("x".utf8)), name: "field")]
        let target = TransferTarget(
            baseURL: server.baseURL, path: "/forms", task: .uploadCompositeMultipart(parts, urlParameters: ["v": 2]))

        _ = try await Provider<TransferTarget>().request(target)

        #expect(server.requests.first?.query == "v=2")
        #expect(
            server.requests.first.flatMap { MultipartParser.parse($0.body, contentType: $0.header("Content-Type")) }?
                .count == 1)
    }

    func callbackRequestMapping() async throws {
        let stubbed = Provider<SampleAPI>(
            requestClosure: { endpoint, done in
                DispatchQueue.global().async {
                    var request = try? endpoint.urlRequest()
                    request?.setValue("signed", forHTTPHeaderField: "X-Signature")
                    done(request.map { .success($0) } ?? .failure(.requestMapping(endpoint.url)))
                    done(.failure(.cancelled))  // a second report is ignored
                }
            }, stubClosure: Provider.immediatelyStub)
        let response = try await stubbed.request(.user("ann"))
        #expect(response.request?.value(forHTTPHeaderField: "X-Signature") == "signed")

        let failing = Provider<SampleAPI>(
            requestClosure: { _, done in done(.failure(.requestMapping("bad"))) }, stubClosure: Provider.immediatelyStub
        )
        let failure = await capture { try await failing.request(.user("ann")) }
        guard case .requestMapping("bad")? = failure else {
            Issue.record("expected .requestMapping, got \(String(describing: failure))")
            return
        }

        // A closure that never calls back: the cancel ends the request once the closure runs.
        let called = TestBox(false)
        let silent = Provider<SampleAPI>(
            requestClosure: { _, _ in called.value = true }, stubClosure: Provider.immediatelyStub)
        let request = Task { try await silent.request(.user("ann")) }
        #expect(await waitUntil { called.value })
        request.cancel()
        let cancelled = await capture { try await request.value }
        #expect(cancelled?.isCancellation == true)
    }

    func inflightRequests() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            _ = release.wait(timeout: .now() + 10)
            return .text("done")
        }
        let provider = Provider<TransferTarget>(trackInflights: true)
        let target = TransferTarget(baseURL: server.baseURL, path: "/slow", method: .get, task: .requestPlain)
        #expect(provider.inflightRequests.isEmpty)

        async let first = provider.request(target)
        async let second = provider.request(target)
        #expect(await waitUntil { provider.inflightCallers(for: target) == 2 })
        #expect(provider.inflightRequests.count == 1)
        #expect(provider.inflightRequests.first?.key.url?.path == "/slow")
        #expect(provider.inflightRequests.first?.value == 2)
        release.signal()
        _ = try await (first, second)
        #expect(provider.inflightRequests.isEmpty)
    }

    func urlOfTarget() {
        #expect(URL(target: SampleAPI.user("ann")) == SampleAPI.user("ann").url)
        #expect(URL(target: SampleAPI.user("ann")).absoluteString == "https://api.example.com/v1/users/ann")
    }
}
