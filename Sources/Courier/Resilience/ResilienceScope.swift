/// Which requests share a ``ResiliencePolicy``'s state: its retry budget, circuit breaker,
/// limits, back-off and hedging latencies.
///
/// State lives in the provider, so requests of two providers never share it. An open set, as
/// later versions may add scopes: compare with `==`.
public struct ResilienceScope: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case host
        case provider
        case group(String)
    }

    let kind: Kind

    /// Requests to one origin (scheme, host and port) share the state: one failing host does not
    /// open the breaker of another. The default.
    public static let host = ResilienceScope(kind: .host)
    /// All the provider's requests with this policy share one state, whatever their host.
    public static let provider = ResilienceScope(kind: .provider)

    /// The requests of the targets that name the same group share one state, whatever their
    /// host: for a dependency behind several hosts, or one host's separate services.
    /// - Parameter name: The group's name.
    /// - Returns: The scope.
    public static func group(_ name: String) -> ResilienceScope { ResilienceScope(kind: .group(name)) }

    /// `host`, `provider` or `group(name)`.
    public var description: String {
        switch kind {
        case .host: "host"
        case .provider: "provider"
        case .group(let name): "group(\(name))"
        }
    }
}
