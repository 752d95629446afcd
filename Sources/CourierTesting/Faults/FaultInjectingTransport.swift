import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that fails on purpose, on a clock the test controls: a share of random failures,
/// a latency distribution, outage windows and 429/503 answers with `Retry-After`, all from a
/// seed, so that a run repeats.
///
/// ```swift
/// let clock = TestClock()
/// let faults = FaultInjectingTransport(
///     clock: clock, seed: 7, latency: .fixed(0.02),
///     outages: [Outage(from: 1, to: 11, fault: .status(503))])
/// let provider = Provider<API>(transport: faults, interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard, clock: clock))
/// ```
/// A healthy exchange answers `200` with ``body``, or goes to `base` when one is given. Every
/// exchange that reaches the transport is counted in ``received`` with its clock time, whatever
/// its fate; a cancelled one stops at once.
public final class FaultInjectingTransport: Transport {
    /// The clock the transport reads and sleeps on.
    public let clock: any ProviderClock
    /// The share of exchanges outside outages that fail with ``randomFault``.
    public let failureRatio: Double
    /// How a random failure fails.
    public let randomFault: Fault
    /// How long exchanges take.
    public let latency: Latency
    /// The windows in which every exchange fails.
    public let outages: [Outage]
    /// The body of a healthy answer.
    public let body: Data
    /// Where healthy exchanges go instead, when given.
    public let base: (any Transport)?
    private let state: Locked<(random: SeededRandom, times: [TimeInterval])>

    /// Creates the transport.
    /// - Parameters:
    ///   - clock: The clock it reads and sleeps on.
    ///   - seed: The seed of its random choices.
    ///   - failureRatio: The share of exchanges outside outages that fail; 0 by default.
    ///   - randomFault: How a random failure fails; a 503 by default.
    ///   - latency: How long exchanges take; no time by default.
    ///   - outages: The windows in which every exchange fails; none by default.
    ///   - body: The body of a healthy answer; `{}` by default.
    ///   - base: Where healthy exchanges go instead; none by default.
    public init(
        clock: any ProviderClock, seed: UInt64 = 1, failureRatio: Double = 0, randomFault: Fault = .status(503),
        latency: Latency = .fixed(0), outages: [Outage] = [], body: Data = Data("{}".utf8), base: (any Transport)? = nil
    ) {
        self.clock = clock
        self.failureRatio = failureRatio
        self.randomFault = randomFault
        self.latency = latency
        self.outages = outages
        self.body = body
        self.base = base
        state = Locked((SeededRandom(seed: seed), []))
    }

    /// The clock times at which exchanges reached the transport, in order.
    public var received: [TimeInterval] { state.withLock { $0.times } }

    /// How many exchanges reached the transport between `start` (included) and `end` (not).
    /// - Parameters:
    ///   - start: The window's start, in the clock's seconds.
    ///   - end: The window's end.
    /// - Returns: The count.
    public func received(from start: TimeInterval, to end: TimeInterval) -> Int {
        received.filter { $0 >= start && $0 < end }.count
    }

    /// Answers `request` as the faults decide.
    /// - Parameter request: The request.
    /// - Returns: A healthy answer, or a fault's status.
    /// - Throws: A fault's `URLError`, or `CancellationError`.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let now = clock.now()
        let url = request.urlRequest.url ?? URL(fileURLWithPath: "/")
        let (delay, fault) = state.withLock { state -> (TimeInterval, Fault?) in
            state.times.append(now)
            let delay = latency.seconds(random: state.random.next())
            if let outage = outages.first(where: { $0.covers(now) }) { return (delay, outage.fault) }
            return (delay, state.random.next() < failureRatio ? randomFault : nil)
        }
        if fault == .connectionRefused { throw URLError(.cannotConnectToHost) }
        if fault == .noAnswer { try await clock.sleep(seconds: Delay.maximumSeconds) }
        try await clock.sleep(seconds: delay)
        if case .delay(let late)? = fault { try await clock.sleep(seconds: late) }
        switch fault {
        case .status(let code, let retryAfter)?:
            let fields = retryAfter.map { HeaderFields(["Retry-After": String($0)]) } ?? HeaderFields()
            return TransportResponse(statusCode: code, headerFields: fields, url: url, data: Data())
        case .connectionLost?, .cutBody?:
            throw URLError(.networkConnectionLost)
        default:
            if let base { return try await base.send(request) }
            return TransportResponse(
                statusCode: 200, headerFields: HeaderFields(["Content-Type": "application/json"]), url: url, data: body)
        }
    }
}
