import Foundation

/// A provider's resilience state: one ``ScopeState`` per policy and scope key, made when a
/// request first needs it.
///
/// Bounded: past ``capacity`` scopes (a client of very many hosts), the idle ones (closed
/// breaker, nothing in flight or queued) are forgotten, the oldest first.
final class ResilienceRegistry: Sendable {
    private struct Key: Hashable {
        let policy: ResiliencePolicy
        let scope: String
    }

    private struct Entries {
        var states: [Key: ScopeState] = [:]
        var order: [Key] = []
    }

    /// The most scopes kept.
    static let capacity = 1024
    private let entries = Locked(Entries())

    /// The state of `policy` for a request to `url`.
    func state(for policy: ResiliencePolicy, url: URL?) -> ScopeState {
        let key = Key(policy: policy, scope: Self.scopeKey(policy.scope, url: url))
        return entries.withLock { entries in
            if let state = entries.states[key] { return state }
            if entries.states.count >= Self.capacity { Self.evict(&entries) }
            let state = ScopeState(policy: policy, key: key.scope)
            entries.states[key] = state
            entries.order.append(key)
            return state
        }
    }

    /// The scope key of a request to `url`: its origin for ``ResilienceScope/host``.
    static func scopeKey(_ scope: ResilienceScope, url: URL?) -> String {
        switch scope.kind {
        case .provider: return "provider"
        case .group(let name): return "group(\(name))"
        case .host:
            guard let url else { return "" }
            let origin = Origin(url)
            return "\(origin.scheme ?? "")://\(origin.host ?? ""):\(origin.port.map(String.init) ?? "")"
        }
    }

    private static func evict(_ entries: inout Entries) {
        let idle = Set(entries.order.filter { entries.states[$0]?.isIdle ?? true })
        let forget = idle.isEmpty ? Set(entries.order.prefix(capacity / 4)) : idle
        entries.order.removeAll { forget.contains($0) }
        for key in forget { entries.states[key] = nil }
    }
}

extension ScopeState {
    /// Whether forgetting this state loses nothing that matters now.
    var isIdle: Bool {
        circuitState == .closed && (bulkhead.map { $0.load == (0, 0) } ?? true)
    }
}
