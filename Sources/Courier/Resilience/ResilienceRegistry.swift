import Foundation

/// A provider's resilience state: one ``ScopeState`` per policy and scope, made when a request
/// first needs it. The provider's own policy has a table of its own, found without hashing the
/// policy (the common case: most targets declare none).
///
/// Bounded: past ``capacity`` scopes (a client of very many hosts), the idle ones (closed
/// breaker, nothing in flight or queued) are forgotten; when none is idle, an eighth of them.
final class ResilienceRegistry: Sendable {
    /// Where a scope's requests go: an origin's text (`https://api.example.com`, a default port
    /// left out), `provider`, or a group's name; the name the breaker's transitions give.
    typealias ScopeKey = String

    private struct Key: Hashable {
        let policy: ResiliencePolicy
        let scope: ScopeKey
    }

    private struct Entries {
        /// The provider policy's last scope found, found again without hashing when the next
        /// request goes to the same origin (Benchmarks/count).
        var last: (key: ScopeKey, state: ScopeState)?
        var own: [ScopeKey: ScopeState] = [:]
        var declared: [Key: ScopeState] = [:]
        var count: Int { own.count + declared.count }
    }

    /// The most scopes kept.
    static let capacity = 1024
    /// The provider's policy, for targets that declare none.
    let providerPolicy: ResiliencePolicy?
    /// Whether there is one, and its scope, read without copying it.
    let hasProviderPolicy: Bool
    private let providerScope: ResilienceScope
    private let entries = Locked(Entries())

    init(providerPolicy: ResiliencePolicy?) {
        self.providerPolicy = providerPolicy
        hasProviderPolicy = providerPolicy != nil
        providerScope = providerPolicy?.scope ?? .host
    }

    /// The state of the provider's policy for a request to `url`, or `nil` without one.
    func providerState(url: URL?) -> ScopeState? {
        guard hasProviderPolicy else { return nil }
        let last = entries.withLock { $0.last }
        if let last, providerScope.kind != .host || url.map({ Self.isInOrigin($0, last.key) }) == true {
            return last.state
        }
        let scope = Self.scopeKey(providerScope, url: url)
        let policy = providerPolicy!
        return entries.withLock { entries in
            if let state = entries.own[scope] {
                entries.last = (scope, state)
                return state
            }
            if entries.count >= Self.capacity { Self.evict(&entries) }
            let state = ScopeState(policy: policy, key: scope)
            entries.own[scope] = state
            entries.last = (scope, state)
            return state
        }
    }

    /// Whether `url`'s string starts with `origin` (a key in normal form) followed by its path,
    /// query or fragment, or nothing: then its origin is that one.
    private static func isInOrigin(_ url: URL, _ origin: ScopeKey) -> Bool {
        let string = url.absoluteString
        return string.utf8.withContiguousStorageIfAvailable { bytes in
            origin.utf8.withContiguousStorageIfAvailable { prefix in
                guard bytes.count >= prefix.count, prefix.count > 0,
                    memcmp(bytes.baseAddress!, prefix.baseAddress!, prefix.count) == 0
                else { return false }
                guard bytes.count > prefix.count else { return true }
                let next = bytes[prefix.count]
                return next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
            } ?? false
        } ?? false
    }

    /// The state of a target's own `policy` for a request to `url`.
    func state(for policy: ResiliencePolicy, url: URL?) -> ScopeState {
        let key = Key(policy: policy, scope: Self.scopeKey(policy.scope, url: url))
        return entries.withLock { entries in
            if let state = entries.declared[key] { return state }
            if entries.count >= Self.capacity { Self.evict(&entries) }
            let state = ScopeState(policy: policy, key: key.scope)
            entries.declared[key] = state
            return state
        }
    }

    /// The scope key of a request to `url`: its origin for ``ResilienceScope/host``.
    static func scopeKey(_ scope: ResilienceScope, url: URL?) -> ScopeKey {
        switch scope.kind {
        case .provider: "provider"
        case .group(let name): "group(\(name))"
        case .host: url.map(originText) ?? ""
        }
    }

    /// The origin of `url` as text: the start of its string when that is already in normal form
    /// (lower case, no user, no escapes, no port), else made from its parts. Cheap on purpose:
    /// it runs once per request (Benchmarks/count).
    static func originText(_ url: URL) -> String {
        let string = url.absoluteString
        let fast = string.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.count,
                bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            var end = colon + 3
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") || byte >= 0x80 || byte == UInt8(ascii: "%")
                    || byte == UInt8(ascii: "@") || byte == UInt8(ascii: ":")
                {
                    return nil
                }
                end += 1
            }
            for byte in bytes[..<colon] where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return nil }
            return end
        }
        if let end = fast ?? nil {
            return String(string.utf8.prefix(end))!
        }
        return Origin(url).text
    }

    /// Forgets the idle scopes, or a quarter of them when none is idle.
    private static func evict(_ entries: inout Entries) {
        let idleOwn = entries.own.filter { $0.value.isIdle }.map(\.key)
        let idleDeclared = entries.declared.filter { $0.value.isIdle }.map(\.key)
        entries.last = nil
        if idleOwn.isEmpty && idleDeclared.isEmpty {
            for key in entries.own.keys.prefix(capacity / 8) { entries.own[key] = nil }
            for key in entries.declared.keys.prefix(capacity / 8) { entries.declared[key] = nil }
            return
        }
        for key in idleOwn { entries.own[key] = nil }
        for key in idleDeclared { entries.declared[key] = nil }
    }
}

extension ScopeState {
    /// Whether forgetting this state loses nothing that matters now.
    var isIdle: Bool {
        circuitState == .closed && (bulkhead.map { $0.load == (0, 0) } ?? true)
    }
}
