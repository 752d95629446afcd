import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Moya's table of requests in flight, read without the deprecation warning (a witness of a
/// protocol requirement is not a use of the deprecated name).
private protocol InflightTable {
    var inflightRequests: [URLRequest: Int] { get }
}

extension Provider: InflightTable {}

/// What the completions of joined requests see, as in Moya's MoyaProviderSpec: each runs while the
/// request is still listed in `inflightRequests` (one entry, every caller counted), in the order
/// the callers joined.
@Suite("trackInflights: the joined callers' completions")
struct TrackInflightsDeliveryTests {
    private final class Seen: Sendable {
        let entries = Locked<[String]>([])
    }

    @Test("both completions see one entry; the first caller's completion runs first", arguments: [1, 2, 3])
    func completionsSeeTheEntry(extraCallers: Int) async throws {
        let harness = try OrderHarness(.stub, script: [.status(200)])
        let gate = CallRecorder()
        let provider = gatedProvider(harness, gate: gate)
        let key = try provider.endpoint(harness.target).urlRequest()
        // A concurrent queue: nothing but the provider orders the completions.
        let queue = DispatchQueue(label: "completions", attributes: .concurrent)
        let seen = Seen()
        let callers = 1 + extraCallers
        for caller in 1...callers {
            provider.request(harness.target, callbackQueue: queue) { result in
                let table = (provider as any InflightTable).inflightRequests
                let counts = table.values.map(String.init).sorted().joined(separator: ",")
                seen.entries.withLock { $0.append("\(caller): \(table.count) entry, \(counts) callers") }
                _ = result
            }
            #expect(await waitUntil { provider.inflightCallers(for: key) == caller })
        }
        gate.record(.send)
        #expect(await waitUntil { seen.entries.value.count == callers })
        #expect(seen.entries.value == (1...callers).map { "\($0): 1 entry, \(callers) callers" })
        #expect(await waitUntil { (provider as any InflightTable).inflightRequests.isEmpty })
        #expect(!provider.isInFlight(key))
    }
}
