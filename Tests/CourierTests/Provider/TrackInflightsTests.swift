import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("trackInflights")
struct TrackInflightsTests {
    @Test("an identical request joins the one in flight", arguments: Mode.allCases)
    func joins(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let gate = CallRecorder()
        let provider = gatedProvider(harness, gate: gate)
        let key = try provider.endpoint(harness.target).urlRequest()

        async let first = harness.run(provider)
        #expect(await harness.recorder.wait(for: .adapt(attempt: 1)))
        async let second = harness.run(provider)
        #expect(await waitUntil { provider.inflightCallers(for: key) == 2 })
        gate.record(.send)
        let results = await [first, second]

        #expect(results.allSatisfy { (try? $0.get().statusCode) == 200 })
        #expect(!provider.isInFlight(key))
        if mode == .network { #expect(harness.serverRequestCount == 1) }
        // The shared exchange runs once; then each caller runs `process` and gets its
        // completion, the two callers concurrently.
        let events = harness.recorder.events
        #expect(
            Array(events.prefix(7)) == [HookEvent].attempt(1, .success(200)) + [.didReceive("P1", .success(200))])
        #expect(
            isInterleaving(
                of: [.process("P1", .success(200)), .completion(.success(200))], times: 2, events.dropFirst(7)))
    }

    @Test("a request that fails before its first attempt leaves no entry behind", arguments: Mode.allCases)
    func buildingFailureLeavesNoEntry(mode: Mode) async throws {
        struct Unsigned: Error {}
        let harness = try OrderHarness(mode, script: [.status(200), .status(200)])
        let failing = harness.provider(requestClosure: { _ in throw Unsigned() }, trackInflights: true)
        let key = try failing.endpoint(harness.target).urlRequest()

        let first = await harness.run(failing)
        #expect(first.failure?.stage == .building)
        #expect(!failing.isInFlight(key))
        let second = await harness.run(failing)
        #expect(second.failure?.stage == .building)
    }

    @Test("a joined caller that cancels leaves; the others still get the response", arguments: Mode.allCases)
    func joinedCallerCancels(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let gate = CallRecorder()
        let provider = gatedProvider(harness, gate: gate)
        let key = try provider.endpoint(harness.target).urlRequest()

        let first = Task { await harness.run(provider) }
        #expect(await harness.recorder.wait(for: .adapt(attempt: 1)))
        let second = Task { await harness.run(provider) }
        #expect(await waitUntil { provider.inflightCallers(for: key) == 2 })
        second.cancel()
        #expect(await second.value.failure?.isCancellation == true)
        gate.record(.send)

        #expect(try await first.value.get().statusCode == 200)
        #expect(!provider.isInFlight(key))
    }

    @Test("when every caller cancels, the shared exchange is cancelled once", arguments: Mode.allCases)
    func everyCallerCancels(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.hang])
        let provider = harness.provider(trackInflights: true)
        let key = try provider.endpoint(harness.target).urlRequest()

        let first = Task { await harness.run(provider) }
        #expect(await harness.recorder.wait(for: .send))
        let second = Task { await harness.run(provider) }
        #expect(await waitUntil { provider.inflightCallers(for: key) == 2 })
        first.cancel()
        second.cancel()
        _ = await (first.value, second.value)
        #expect(await harness.recorder.wait(for: .didReceive("P1", .failure(.cancellation))))

        #expect(!provider.isInFlight(key))
        let events = harness.recorder.events
        #expect(events.count { $0 == .didReceive("P1", .failure(.cancellation)) } == 1)
        #expect(events.count { $0 == .completion(.failure(.cancellation)) } == 2)
    }
}

/// A tracking provider whose first attempt waits in `adapt` until `gate` records `.send`, so
/// that other callers can join it.
func gatedProvider(_ harness: OrderHarness, gate: CallRecorder) -> Provider<OrderTarget> {
    let interceptor = RecordingInterceptor(
        recorder: harness.recorder,
        adapt: { request, _ in
            _ = await gate.wait(for: .send)
            return request
        })
    return harness.provider(interceptor: interceptor, trackInflights: true)
}

/// Whether `events` is `count` copies of the ordered `sequence`, interleaved in any way: each
/// caller's events in order, the callers concurrent.
func isInterleaving(of sequence: [HookEvent], times count: Int, _ events: ArraySlice<HookEvent>) -> Bool {
    var progress = [Int](repeating: 0, count: count)
    for event in events {
        // Advance the most advanced copy that expects this event, so that a later event of the
        // sequence is never credited to a copy that has not seen the earlier ones.
        guard
            let copy = progress.indices.filter({ progress[$0] < sequence.count && sequence[progress[$0]] == event })
                .max(by: { progress[$0] < progress[$1] })
        else { return false }
        progress[copy] += 1
    }
    return progress.allSatisfy { $0 == sequence.count }
}

/// Polls `condition` until it holds or `timeout` seconds pass: for state no event announces.
func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

@Suite("trackInflights keys")
struct TrackInflightsKeyTests {
    @Test("requests that differ only in body or headers never join")
    func distinctBodiesDoNotJoin() async throws {
        let transport = ScriptedTransport(fallback: .delayed(0.05, .status(200)))
        let provider = Provider<SampleAPI>(transport: transport, trackInflights: true)
        async let first = provider.request(.create(NewItem(name: "a", count: 1)))
        async let second = provider.request(.create(NewItem(name: "b", count: 1)))
        _ = try await (first, second)
        #expect(transport.requests.count == 2)

        let headers = Provider<SampleAPI>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).adding(newHTTPHeaderFields: ["X-Id": UUID().uuidString])
            },
            transport: transport, trackInflights: true)
        async let third = headers.request(.user("a"))
        async let fourth = headers.request(.user("a"))
        _ = try await (third, fourth)
        #expect(transport.requests.count == 4)
    }
}
