import Foundation

/// A bounded set of ``Origin``s, safe to share between tasks.
final class OriginSet: Sendable {
    private let origins = Locked<Set<Origin>>([])
    /// The most origins remembered; past it the set starts again, so that a client of endlessly
    /// many hosts cannot grow it without bound.
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Whether the origin of `url` is in the set. `url` is read only when the set is not empty,
    /// which it nearly always is.
    func contains(_ url: @autoclosure () -> URL?) -> Bool {
        guard !origins.withLock({ $0.isEmpty }), let url = url() else { return false }
        let origin = Origin(url)
        return origins.withLock { $0.contains(origin) }
    }

    /// Adds the origin of `url`.
    func insert(_ url: URL?) {
        guard let url else { return }
        let origin = Origin(url)
        origins.withLock { origins in
            if origins.count >= capacity { origins.removeAll() }
            origins.insert(origin)
        }
    }
}
