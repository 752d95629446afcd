import Courier
import Foundation
import Testing

/// The disk store: whole entries named by a hash, a restart, damaged files, two writers, a bound.
@Suite("DiskCacheStorage")
struct DiskCacheStorageTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")

    func response(_ index: Int, bytes: Int = 100) -> CachedResponse {
        CachedResponse(
            url: URL(string: "https://api.test/items/\(index)?token=secret")!, statusCode: 200,
            headerFields: [.init(name: "ETag", value: "\"v\(index)\"")],
            body: Data(repeating: UInt8(index % 256), count: bytes),
            requestDate: Date(timeIntervalSince1970: 1), responseDate: Date(timeIntervalSince1970: 2), varyValues: [:])
    }

    func entryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".entry") }
    }

    @Test("an entry survives a restart; its file is named by the SHA-256 of the key, never the URL")
    func restart() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try DiskCacheStorage(directory: folder).store([response(1)], forKey: "abc")

        let reopened = try DiskCacheStorage(directory: folder)
        #expect(reopened.responses(forKey: "abc") == [response(1)])
        #expect(try entryFiles() == ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.entry"])
    }

    @Test("a truncated, corrupt or foreign file is a miss and is removed; a temporary file left mid-write too")
    func damaged() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try DiskCacheStorage(directory: folder)
        let damages: [(Data) -> Data] = [
            { data in data.prefix(data.count - 7) },
            { data in
                var flipped = data
                flipped[flipped.count - 3] ^= 0xFF
                return flipped
            },
            { _ in Data("not an entry".utf8) },
        ]
        for (index, damage) in damages.enumerated() {
            storage.store([response(index)], forKey: "key \(index)")
            let file = folder.appendingPathComponent(try #require(try entryFiles().first))
            try damage(try Data(contentsOf: file)).write(to: file)
            #expect(storage.responses(forKey: "key \(index)").isEmpty)
            #expect(try entryFiles().isEmpty)
        }
        try Data("half".utf8).write(to: folder.appendingPathComponent(".courier-tmp-\(UUID().uuidString)"))
        _ = try DiskCacheStorage(directory: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("two storages on one folder, writing the same keys at once, leave only whole entries")
    func twoWriters() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try DiskCacheStorage(directory: folder)
        let second = try DiskCacheStorage(directory: folder)
        await withTaskGroup(of: Void.self) { group in
            for (offset, storage) in [first, second].enumerated() {
                group.addTask {
                    for round in 0..<100 {
                        storage.store([response(round * 2 + offset, bytes: 4_000)], forKey: "key \(round % 10)")
                    }
                }
            }
        }
        let third = try DiskCacheStorage(directory: folder)
        for key in 0..<10 {
            let stored = third.responses(forKey: "key \(key)")
            #expect(stored.count == 1)
            #expect(stored.first.map { $0.body.count == 4_000 } ?? false)
        }
    }

    @Test("400 distinct keys stay within the byte bound, the most recent kept")
    func bound() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try DiskCacheStorage(directory: folder, maximumBytes: 40_000)
        for index in 0..<400 { storage.store([response(index, bytes: 500)], forKey: "key \(index)") }
        let onDisk = try entryFiles().reduce(0) { total, name in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path))?[.size]
                as? NSNumber ?? 0).intValue
        }
        #expect(onDisk <= 40_000)
        #expect(storage.responses(forKey: "key 399").count == 1)
        #expect(storage.responses(forKey: "key 0").isEmpty)
    }
}
