import Foundation

/// A bounded set of origins (scheme, host and port), safe to share between tasks.
final class OriginSet: Sendable {
    private let origins = Locked<Set<String>>([])
    /// The most origins remembered; past it the set starts again, so that a client of endlessly
    /// many hosts cannot grow it without bound.
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Whether the origin of `url` is in the set.
    func contains(_ url: URL?) -> Bool {
        // Nearly always empty: a check that costs no parsing.
        guard !origins.withLock({ $0.isEmpty }), let key = url.flatMap(Self.origin) else { return false }
        return origins.withLock { $0.contains(key) }
    }

    /// Adds the origin of `url`.
    func insert(_ url: URL?) {
        guard let key = url.flatMap(Self.origin) else { return }
        origins.withLock { origins in
            if origins.count >= capacity { origins.removeAll() }
            origins.insert(key)
        }
    }

    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port.map(String.init) ?? "")"
    }
}
