import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What makes a Moya spec port mechanically: a result to assert on, and a box for captured state.
@Suite("Porting helpers")
struct PortingHelpersTests {
    @Test("result(for:) gives the success or the CourierError, never throwing")
    func result() async {
        let transport = ScriptedTransport(fallback: .status(200))
        transport.enqueue([.status(404)], for: Secured.open)
        let provider = Provider<Secured>(transport: transport)

        let notFound = await provider.result(for: .open)
        let succeeded = await provider.result(for: .open)

        #expect((try? succeeded.get())?.statusCode == 200)
        #expect((try? notFound.get())?.statusCode == 404)
        let invalid = Provider<Secured>(
            transport: transport, plugins: [AccessTokenPlugin { _ in throw URLError(.badURL) }])
        guard case .failure(let error) = await invalid.result(for: .bearer) else {
            Issue.record("a throwing token closure succeeded")
            return
        }
        #expect(error.stage == .preparing)
    }

    @Test("TestBox: concurrent changes from @Sendable closures are all kept")
    func box() async {
        let box = TestBox(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { box.modify { $0 += 1 } } }
        }
        #expect(box.value == 1_000)
        box.value = 7
        #expect(
            box.modify { value -> Int in
                value *= 2
                return value
            } == 14)
    }
}
