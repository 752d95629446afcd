import Courier
import Foundation
import Testing

/// The memory store's byte bound and its eviction order.
@Suite("MemoryCacheStorage")
struct MemoryCacheStorageTests {
    func response(_ index: Int, bytes: Int) -> CachedResponse {
        CachedResponse(
            url: URL(string: "https://api.test/items/\(index)")!, statusCode: 200,
            headerFields: [.init(name: "Cache-Control", value: "max-age=60")], body: Data(count: bytes),
            requestDate: Date(), responseDate: Date(), varyValues: [:])
    }

    @Test("10,000 distinct keys never take more than the bound; the most recent stay")
    func bound() {
        let storage = MemoryCacheStorage(maximumBytes: 1_000_000)
        var highest = 0
        for index in 0..<10_000 {
            storage.store([response(index, bytes: 900)], forKey: "GET \(index)")
            highest = max(highest, storage.bytes)
        }
        #expect(highest <= 1_000_000)
        #expect(storage.responses(forKey: "GET 9999").count == 1)
        #expect(storage.responses(forKey: "GET 0").isEmpty)
    }

    @Test("a key read recently outlives older ones; a response over an eighth of the bound is not kept")
    func recency() {
        let storage = MemoryCacheStorage(maximumBytes: 10_000)
        storage.store([response(0, bytes: 1_000)], forKey: "GET 0")
        for index in 1..<30 {
            _ = storage.responses(forKey: "GET 0")
            storage.store([response(index, bytes: 1_000)], forKey: "GET \(index)")
        }
        #expect(storage.responses(forKey: "GET 0").count == 1)
        storage.store([response(99, bytes: 2_000)], forKey: "GET big")
        #expect(storage.responses(forKey: "GET big").isEmpty)
    }
}
