import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Provider")
struct ProviderTests {
    @Test("the completion handler runs on the requested callback queue, exactly once")
    func callbackQueue() async {
        let queue = DispatchQueue(label: "courier.test.callback")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "callback")
        let recorder = CallRecorder()
        let provider = Provider<SampleAPI>(stubClosure: Provider.immediatelyStub)
        provider.request(.user("octocat"), callbackQueue: queue) { result in
            #expect(DispatchQueue.getSpecific(key: key) == "callback")
            recorder.record(.completion(.init(result)))
        }
        #expect(await recorder.wait(for: .completion(.success(200))))
        #expect(recorder.events == [.completion(.success(200))])
    }

    @Test("the provider's callback queue is the default for the completion API")
    func providerCallbackQueue() async {
        let queue = DispatchQueue(label: "courier.test.provider-queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let recorder = CallRecorder()
        let provider = Provider<SampleAPI>(stubClosure: Provider.immediatelyStub, callbackQueue: queue)
        provider.request(.user("octocat")) { result in
            if DispatchQueue.getSpecific(key: key) == true { recorder.record(.completion(.init(result))) }
        }
        #expect(await recorder.wait(for: .completion(.success(200))))
    }

    @Test("the async API decodes with request(_:as:)")
    func decodes() async throws {
        let provider = Provider<SampleAPI>(stubClosure: Provider.immediatelyStub)
        let user = try await provider.request(.user("octocat"), as: User.self)
        #expect(user.login == "octocat")
        let name = try await provider.request(.user("octocat"), as: String.self, atKeyPath: "profile.name")
        #expect(name == "The Octocat")
    }

    @Test("every attempt starts from the built request; the response carries the adapted one")
    func attemptsStartFromBase() async throws {
        struct Stamp: PluginType {
            func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
                var request = request
                request.addValue("x", forHTTPHeaderField: "X-Stamp")
                return request
            }
        }
        let transport = ScriptedTransport()
        transport.enqueue([.status(500), .status(200)], for: SampleAPI.user("a"))
        let provider = Provider<SampleAPI>(
            transport: transport, plugins: [Stamp()],
            interceptor: Interceptor(
                adapters: [
                    Adapter { request, context in
                        var request = request
                        request.setValue("\(context.attempt)", forHTTPHeaderField: "X-Attempt")
                        return request
                    }
                ],
                retriers: [Retrier { _, _, context in context.attempt < 2 ? .retry : .doNotRetry }]))
        let response = try await provider.request(.user("a"))

        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "X-Stamp") } == ["x", "x"])
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "X-Attempt") } == ["1", "2"])
        #expect(response.request?.value(forHTTPHeaderField: "X-Attempt") == "2")
    }

    @Test("willSend sees the prepared request, its attempt number and a redacted cURL command")
    func willSendSeesPreparedRequest() async throws {
        final class Spy: PluginType {
            let seen = Locked<[String]>([])
            func willSend(_ request: PreparedRequest, target: any TargetType) {
                seen.withLock { $0.append("#\(request.attempt) \(request.cURLDescription())") }
            }
        }
        let spy = Spy()
        let provider = Provider<SampleAPI>(
            endpointClosure: {
                Provider.defaultEndpointMapping(for: $0).adding(newHTTPHeaderFields: ["Authorization": "Bearer secret"])
            },
            stubClosure: Provider.immediatelyStub, plugins: [spy])
        _ = try await provider.request(.create(NewItem(name: "pen", count: 1)))

        #expect(
            spy.seen.value == [
                "#1 curl -X POST -H 'Accept: application/json' -H 'Authorization: ***' -H 'Content-Type: application/json' -d '{\"count\":1,\"name\":\"pen\"}' 'https://api.example.com/v1/items'"
            ])
    }

    @Test("process may turn a success into a failure, and back")
    func processTransforms() async throws {
        struct Reject: PluginType {
            func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
                Response, CourierError
            > {
                guard case .success(let response) = result else { return result }
                return .failure(.underlying(URLError(.userAuthenticationRequired), response))
            }
        }
        struct Rescue: PluginType {
            func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
                Response, CourierError
            > {
                guard case .failure(let error) = result, let response = error.response else { return result }
                return .success(response)
            }
        }
        let rejecting = Provider<SampleAPI>(stubClosure: Provider.immediatelyStub, plugins: [Reject()])
        await #expect(throws: CourierError.self) { try await rejecting.request(.user("a")) }
        let rescued = Provider<SampleAPI>(stubClosure: Provider.immediatelyStub, plugins: [Reject(), Rescue()])
        #expect(try await rescued.request(.user("a")).statusCode == 200)
    }

    @Test("MultiTarget serves several APIs and forwards every property")
    func multiTarget() async throws {
        let provider = Provider<MultiTarget>(stubClosure: Provider.immediatelyStub)
        let response = try await provider.request(MultiTarget(SampleAPI.user("octocat")))
        #expect(response.request?.url?.absoluteString == "https://api.example.com/v1/users/octocat")
        #expect(try response.map(User.self).login == "octocat")
        let wrapped = MultiTarget.target(SampleAPI.create(NewItem(name: "a", count: 1)))
        #expect(wrapped.method == .post)
        #expect(wrapped.validationType == .successCodes)
        #expect(wrapped.target is SampleAPI)
    }

    @Test("validation .none accepts every status, so no retrier runs")
    func validationNone() async throws {
        struct Lenient: TargetType {
            var baseURL: URL { URL(string: "https://example.com")! }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
        }
        let transport = ScriptedTransport(fallback: .status(500))
        let recorder = CallRecorder()
        let provider = Provider<Lenient>(transport: transport, interceptor: RecordingInterceptor(recorder: recorder))
        #expect(try await provider.request(Lenient()).statusCode == 500)
        #expect(recorder.events == [.adapt(attempt: 1)])
    }

    @Test("validation types accept what they say")
    func validationTypes() {
        #expect(ValidationType.successCodes.accepts(299) && !ValidationType.successCodes.accepts(300))
        #expect(
            ValidationType.successAndRedirectCodes.accepts(399) && !ValidationType.successAndRedirectCodes.accepts(400))
        #expect(ValidationType.customCodes([200, 404]).accepts(404) && !ValidationType.customCodes([200]).accepts(201))
        #expect(ValidationType.none.accepts(599) && ValidationType.none.statusCodes.isEmpty)
        #expect(ValidationType.successCodes.statusCodes == Array(200..<300))
    }

    @Test("an adapter that adds a body to a GET fails the attempt before it is sent")
    func adaptedGetWithBody() async throws {
        let transport = ScriptedTransport(fallback: .status(200))
        let provider = Provider<SampleAPI>(
            transport: transport,
            interceptor: Adapter { request, _ in
                var request = request
                request.httpBody = Data("x".utf8)
                return request
            })
        await #expect {
            try await provider.request(.user("a"))
        } throws: {
            guard case .adaptation(let error, _) = $0 as? CourierError else { return false }
            return error as? RequestValidationError == .bodyNotAllowed(.get)
        }
        #expect(transport.requests.isEmpty)
    }
}
