import Foundation

/// An ``HTTPCacheStorage`` in a folder, bounded in bytes, that survives a restart.
///
/// Each key is one file named by the SHA-256 of the key (never the URL itself), written whole to
/// a temporary file and renamed into place, so a reader never sees half an entry, and two
/// providers or two processes on one folder never corrupt it (the last write of a key wins). A
/// file that is truncated, corrupt or of another format is a miss and is removed. Past the bound
/// the least recently used entries go first (their modification time is their last use). A
/// temporary file left by a process killed mid-write is removed the next time a storage opens
/// the folder.
///
/// What it holds: the responses the cache stores, header fields and bodies as received,
/// including answers to requests with `Authorization`. Put it where only your app can read, such
/// as the caches folder of its own container:
/// ```swift
/// let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
///     .appendingPathComponent("api-cache")
/// let cache = HTTPCache(storage: try DiskCacheStorage(directory: folder, maximumBytes: 50_000_000))
/// ```
public final class DiskCacheStorage: HTTPCacheStorage {
    /// The folder.
    public let directory: URL
    /// The most bytes the entry files may take.
    public let maximumBytes: Int

    /// Entry files by name: their size and last use.
    private let index: Locked<[String: (bytes: Int, lastUse: Date)]>

    static let entrySuffix = ".entry"
    static let temporaryPrefix = ".courier-tmp-"
    private static let magic = Array("CRC1".utf8)

    /// Opens (or creates) a storage in `directory`.
    /// - Parameters:
    ///   - directory: The folder; created when missing.
    ///   - maximumBytes: The most bytes its entries may take; 50 MB by default.
    /// - Throws: The file system's error when the folder cannot be created or read.
    public init(directory: URL, maximumBytes: Int = 50_000_000) throws {
        self.directory = directory
        self.maximumBytes = max(0, maximumBytes)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        index = Locked(try Self.scan(directory, removingTemporaries: true))
    }

    /// The bytes the entry files take, as this storage last counted them.
    public var bytes: Int { index.withLock { $0.values.reduce(0) { $0 + $1.bytes } } }

    /// The responses stored for `key`; a damaged file is removed.
    public func responses(forKey key: String) -> [CachedResponse] {
        let name = Self.fileName(key)
        let file = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: file) else {
            _ = index.withLock { $0.removeValue(forKey: name) }
            return []
        }
        guard let record = Self.decode(data) else {
            remove(name)
            return []
        }
        guard record.key == key else { return [] }
        let now = Date()
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: file.path)
        index.withLock { $0[name] = (data.count, now) }
        return record.responses
    }

    /// Writes the responses for `key` whole, then evicts the least recently used past the bound.
    public func store(_ responses: [CachedResponse], forKey key: String) {
        let name = Self.fileName(key)
        guard !responses.isEmpty, let data = Self.encode(Record(key: key, responses: responses)),
            data.count <= maximumBytes / 8
        else { return remove(name) }
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
        guard (try? data.write(to: temporary)) != nil,
            systemRename(temporary.path, directory.appendingPathComponent(name).path) == 0
        else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let total = index.withLock { index in
            index[name] = (data.count, Date())
            return index.values.reduce(0) { $0 + $1.bytes }
        }
        if total > maximumBytes { evict() }
    }

    /// Removes every entry.
    public func removeAll() {
        for name in index.withLock({ Array($0.keys) }) { remove(name) }
    }

    /// Down to 90 % of the bound, least recently used first, counting other processes' files too.
    private func evict() {
        let found = (try? Self.scan(directory, removingTemporaries: false)) ?? [:]
        var total = found.values.reduce(0) { $0 + $1.bytes }
        let target = maximumBytes - maximumBytes / 10
        var kept = found
        for (name, entry) in found.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > target {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            kept[name] = nil
            total -= entry.bytes
        }
        index.withLock { $0 = kept }
    }

    private func remove(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        _ = index.withLock { $0.removeValue(forKey: name) }
    }

    /// The entry files of `directory` with their sizes and modification times.
    private static func scan(_ directory: URL, removingTemporaries: Bool) throws -> [String: (
        bytes: Int, lastUse: Date
    )] {
        var found: [String: (bytes: Int, lastUse: Date)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let path = directory.appendingPathComponent(name).path
            if removingTemporaries && name.hasPrefix(temporaryPrefix) {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            guard name.hasSuffix(entrySuffix), let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            found[name] = (size, attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return found
    }

    /// The file name of `key`: its SHA-256.
    static func fileName(_ key: String) -> String { SHA256.hex(Array(key.utf8)) + entrySuffix }

    /// What one file holds.
    private struct Record: Codable {
        let key: String
        let responses: [CachedResponse]
    }

    /// Magic, payload length and checksum, then the payload.
    private static func encode(_ record: Record) -> Data? {
        guard let payload = try? JSONEncoder().encode(record) else { return nil }
        var data = Data(magic)
        withUnsafeBytes(of: UInt64(payload.count).bigEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: checksum(payload).bigEndian) { data.append(contentsOf: $0) }
        data.append(payload)
        return data
    }

    /// The record of a whole, intact file; `nil` for anything else.
    private static func decode(_ data: Data) -> Record? {
        let bytes = [UInt8](data)
        guard bytes.count >= 20, Array(bytes[0..<4]) == magic else { return nil }
        let length = bytes[4..<12].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let sum = bytes[12..<20].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard UInt64(bytes.count - 20) == length else { return nil }
        let payload = Data(bytes[20...])
        guard checksum(payload) == sum else { return nil }
        return try? JSONDecoder().decode(Record.self, from: payload)
    }

    /// FNV-1a over the payload: enough to tell a damaged file, not a defence against tampering.
    private static func checksum(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
