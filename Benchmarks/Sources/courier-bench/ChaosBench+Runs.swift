import Courier
import CourierTesting
import Foundation

extension ChaosBench {
    /// A server whose answer depends on the time since `origin`: 503 (or a spent rate limit, or
    /// no server at all) during the outage.
    final class PhasedServer: Sendable {
        let hits = Guarded<[Double]>([])
        let origin: Double
        let server: Guarded<LoopbackServer?>
        let port: UInt16

        init(origin: Double, outage: Outage) throws {
            self.origin = origin
            let hits = self.hits
            // The wall-clock second the limit resets: the window's end, rounded up.
            let reset = String(
                Int((Date().timeIntervalSince1970 + ChaosBench.outageEnd - (now() - origin)).rounded(.up)))
            let handler: LoopbackServer.Handler = { _ in
                let time = now() - origin
                hits.withLock { $0.append(time) }
                guard time >= ChaosBench.warmUp, time < ChaosBench.outageEnd else {
                    return ServerReply(body: Data("{}".utf8))
                }
                switch outage {
                case .unavailable: return ServerReply(status: 503, body: Data("down".utf8))
                case .rateLimited:
                    return ServerReply(
                        status: 429, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": reset],
                        body: Data("rate limit exceeded".utf8))
                case .refused: break
                }
                return ServerReply(body: Data("{}".utf8))
            }
            let first = try LoopbackServer(handler: handler)
            port = UInt16(first.baseURL.port!)
            server = Guarded(first)
            guard outage == .refused else { return }
            // Refused: the server stops for the outage and starts again on the same port.
            Thread.detachNewThread { [server, port] in
                Thread.sleep(forTimeInterval: max(0, origin + ChaosBench.warmUp - now()))
                server.withLock { $0?.stop() }
                Thread.sleep(forTimeInterval: max(0, origin + ChaosBench.outageEnd - now()))
                let again = try? LoopbackServer(port: port, handler: handler)
                server.withLock { $0 = again }
            }
        }

        var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

        func stop() { server.withLock { $0?.stop() } }
    }

    static func outageRun(_ outage: Outage, variant: String, clients count: Int) async throws -> [String: Double] {
        let origin = now()
        let server = try PhasedServer(origin: origin, outage: outage)
        defer { server.stop() }
        let plugin = AttemptClock(origin: origin)
        let calls = await clients(
            count, provider: provider(variant, plugin: plugin), url: server.url, origin: origin, end: runEnd, pause: 0.1
        )
        return outageFigures(calls, hits: plugin.times.withLock { $0 })
    }

    static func outageFigures(_ calls: [Call], hits: [Double]) -> [String: Double] {
        let window = warmUp..<outageEnd
        let started = calls.filter { window.contains($0.start) }
        let attempts = hits.filter { window.contains($0) }.count
        var figures: [String: Double] = [
            "attemptsPerRequest": Double(attempts) / Double(max(1, started.count)),
            "attemptsInWindow": Double(attempts),
            "requestsInWindow": Double(started.count),
        ]
        // Lockstep: the share of the window's attempts in its busiest tenth of 100 ms slots.
        var slots = [Int](repeating: 0, count: 100)
        for hit in hits where window.contains(hit) { slots[min(99, Int((hit - warmUp) * 10))] += 1 }
        figures["busiestTenth"] = Double(slots.sorted(by: >).prefix(10).reduce(0, +)) / Double(max(1, attempts))
        let learned = started.filter { !$0.succeeded }.map { $0.end - $0.start }.sorted()
        figures["learnP50ms"] = percentile(learned, 0.5) * 1000
        let refusals = calls.filter(\.refusedByPolicy).map { $0.end - $0.start }.sorted()
        // How long after the outage began the policy refused its first request.
        if let opened = calls.filter(\.refusedByPolicy).map(\.end).min() {
            figures["openedAfterSeconds"] = opened - warmUp
        }
        if !refusals.isEmpty {
            figures["refusalP99ms"] = percentile(refusals, 0.99) * 1000
            figures["refusals"] = Double(refusals.count)
        }
        if let first = calls.filter({ $0.succeeded && $0.end >= outageEnd }).map(\.end).min() {
            figures["recoverySeconds"] = first - outageEnd
            let after = calls.filter { $0.start >= first }
            figures["successAfterRecovery"] = Double(after.filter(\.succeeded).count) / Double(max(1, after.count))
        }
        return figures
    }

    static func tailRun(variant: String, clients count: Int) async throws -> [String: Double] {
        let origin = now()
        let random = Guarded(UInt64(7))
        let server = try LoopbackServer { _ in
            // 5 % of requests stall for a second (a slow replica), from a seeded sequence.
            let draw = random.withLock { state -> Double in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(state >> 11) / Double(1 << 53)
            }
            if draw < 0.05 { Thread.sleep(forTimeInterval: 1) }
            return ServerReply(body: Data("{}".utf8))
        }
        defer { server.stop() }
        let calls = await clients(
            count, provider: provider(variant, plugin: AttemptClock(origin: origin)), url: server.baseURL,
            origin: origin, end: 10, pause: 0.05)
        let latencies = calls.filter { $0.start >= 1 }.map { $0.end - $0.start }.sorted()
        return [
            "p50ms": percentile(latencies, 0.5) * 1000, "p99ms": percentile(latencies, 0.99) * 1000,
            "serverRequestsPerCall": Double(server.requests.count) / Double(max(1, calls.count)),
            "success": Double(calls.filter(\.succeeded).count) / Double(max(1, calls.count)),
        ]
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
    }
}
