import Courier
import CourierCombine
import CourierTesting
import Foundation
import Testing

#if canImport(Combine)
    import Combine
#else
    @preconcurrency import OpenCombine
#endif

@Suite("requestPublisher")
struct RequestPublisherTests {
    @Test("one response, then finished; operators map it")
    func oneValue() async throws {
        let server = try LoopbackServer { _ in .json(#"{"login":"octocat"}"#) }
        let provider = Provider<PublisherTarget>(callbackQueue: .global())
        let target = PublisherTarget(baseURL: server.baseURL, path: "/users/octocat")
        let events = PublisherEvents<User>()

        let publisher = provider.requestPublisher(target).filterSuccessfulStatusCodes().map(User.self)
        #expect(server.requests.isEmpty, "nothing is sent before a subscriber asks")
        let subscription = events.sink(publisher)

        #expect(await events.waitForCompletion())
        #expect(events.values == [User(login: "octocat")])
        guard case .finished? = events.completion else {
            Issue.record("expected finished, got \(String(describing: events.completion))")
            return
        }
        #expect(server.requests.count == 1)
        subscription.cancel()
    }

    @Test("a rejected status is one failure and no value")
    func oneFailure() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 404) }
        let provider = Provider<PublisherTarget>(callbackQueue: .global())
        let events = PublisherEvents<Response>()

        let subscription = events.sink(provider.requestPublisher(PublisherTarget(baseURL: server.baseURL, path: "/x")))

        #expect(await events.waitForCompletion())
        #expect(events.values.isEmpty)
        guard case .statusCode(let response)? = events.failure else {
            Issue.record("expected .statusCode, got \(String(describing: events.completion))")
            return
        }
        #expect(response.statusCode == 404)
        subscription.cancel()
    }

    @Test("cancelling the subscription cancels the request; nothing reaches the subscriber")
    func cancellation() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            _ = release.wait(timeout: .now() + 10)
            return .text("late")
        }
        defer { release.signal() }
        let recorder = CallRecorder()
        let provider = Provider<PublisherTarget>(
            callbackQueue: .global(), plugins: [RecordingPlugin("P", recorder: recorder)])
        let events = PublisherEvents<Response>()

        let subscription = events.sink(
            provider.requestPublisher(PublisherTarget(baseURL: server.baseURL, path: "/slow")))
        #expect(await recorder.wait(for: .willSend("P", attempt: 1)))
        subscription.cancel()

        #expect(await recorder.wait(for: .process("P", .failure(.cancellation))))
        #expect(events.values.isEmpty)
        #expect(events.completion == nil)
    }

    @Test("stubs run through the publisher like the network")
    func stubbed() async throws {
        let provider = Provider<PublisherTarget>(stubClosure: Provider.immediatelyStub, callbackQueue: .global())
        let events = PublisherEvents<String>()

        let subscription = events.sink(
            provider.requestPublisher(PublisherTarget(baseURL: URL(string: "https://api.example.com")!, path: "/u"))
                .mapString(atKeyPath: "login"))

        #expect(await events.waitForCompletion())
        #expect(events.values == ["octocat"])
        subscription.cancel()
    }
}

@Suite("requestWithProgressPublisher")
struct ProgressPublisherTests {
    @Test("progress grows to 1, the last report carries the response, then finished")
    func progress() async throws {
        let body = Data(repeating: 7, count: 4 << 20)
        let server = try LoopbackServer { _ in
            ServerReply(headers: ["Content-Type": "application/octet-stream"], body: body)
        }
        let provider = Provider<PublisherTarget>(callbackQueue: DispatchQueue(label: "progress"))
        let events = PublisherEvents<ProgressResponse>()

        let subscription = events.sink(
            provider.requestWithProgressPublisher(PublisherTarget(baseURL: server.baseURL, path: "/big")))

        #expect(await events.waitForCompletion())
        let reports = events.values
        #expect(reports.count >= 2)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.progress <= $1.progress })
        #expect(reports.last?.progress == 1)
        #expect(reports.last?.response?.data.count == body.count)
        #expect(reports.dropLast().allSatisfy { $0.response == nil })
        guard case .finished? = events.completion else {
            Issue.record("expected finished, got \(String(describing: events.completion))")
            return
        }
        subscription.cancel()
    }

    @Test("a subscriber that asks for one value gets only the first report, and the request goes on")
    func demand() async throws {
        let server = try LoopbackServer { _ in ServerReply(body: Data(repeating: 1, count: 1 << 20)) }
        let recorder = CallRecorder()
        let provider = Provider<PublisherTarget>(
            callbackQueue: DispatchQueue(label: "progress"), plugins: [RecordingPlugin("P", recorder: recorder)])
        let received = TestBox<[ProgressResponse]>([])
        let subscribed = CallRecorder()
        let subscriber = AnySubscriber<ProgressResponse, CourierError>(
            receiveSubscription: { subscription in
                subscription.request(.max(1))
                subscribed.record(.send)
            },
            receiveValue: { report in
                received.modify { $0.append(report) }
                return .none
            },
            receiveCompletion: { _ in Issue.record("no completion without demand for the last report") })

        provider.requestWithProgressPublisher(PublisherTarget(baseURL: server.baseURL, path: "/d")).subscribe(
            subscriber)

        #expect(await subscribed.wait(for: .send))
        // The request runs to its end; the subscriber gets its one report and nothing more.
        #expect(await recorder.wait(for: .process("P", .success(200))))
        #expect(await waitUntil { !received.value.isEmpty })
        #expect(received.value.count == 1)
    }
}

/// Polls `condition` until it holds (10 s at most).
func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}
