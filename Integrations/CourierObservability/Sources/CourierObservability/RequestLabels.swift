import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The bounded names the observability plugins label records with: never a raw URL, an
/// identifier or a parameter value, so that a metrics backend's cardinality stays bounded.
public enum RequestLabels {
    /// The target's type and case name, without associated values: `GitHub.user` for
    /// `GitHub.user("octocat")`; a ``MultiTarget`` is named by the target it wraps. The case name
    /// is the target's own `caseName` when it is a `NamedTarget`, and is otherwise read by
    /// reflection (a few microseconds). A target that is not an enum is named by its type.
    /// - Parameter target: The target.
    /// - Returns: The name.
    public static func target(_ target: any TargetType) -> String {
        let underlying = target.underlyingTarget
        let typeName = String(describing: type(of: underlying))
        return caseName(of: underlying).map { "\(typeName).\($0)" } ?? typeName
    }

    /// The case name of an enum value, without its associated values: Courier's `TargetName`
    /// (the target's own for a `NamedTarget`, otherwise by reflection, about 15,000 instructions on
    /// Linux; never the type's own description, which may carry values); `nil` for a type that is
    /// not an enum, or a case that cannot be named without the type's own text.
    static func caseName(of underlying: any TargetType) -> String? {
        TargetName.caseName(of: underlying)
    }

    /// OpenTelemetry's `server.address` and `server.port` of a request's URL: its host, and its
    /// port or the scheme's default (443 for `https` and `wss`, 80 otherwise); `nil` without a host.
    static func server(of url: URL?) -> (address: String, port: Int)? {
        guard let url, let host = url.host else { return nil }
        if let port = url.port { return (host, port) }
        let scheme = url.scheme?.lowercased()
        return (host, scheme == "https" || scheme == "wss" ? 443 : 80)
    }

    /// A cache outcome as an attribute value: `miss`, `fresh`, `revalidated`, `stale` (with its
    /// reason: `stale.maxStale`…), `shared`, `unsatisfiable`.
    /// - Parameter outcome: The outcome.
    /// - Returns: Its name.
    public static func cacheOutcome(_ outcome: CacheOutcome) -> String {
        switch outcome {
        case .miss: "miss"
        case .fresh: "fresh"
        case .revalidated: "revalidated"
        case .stale(.maxStale): "stale.maxStale"
        case .stale(.whileRevalidating): "stale.whileRevalidating"
        case .stale(.ifError): "stale.ifError"
        case .stale: "stale"
        case .shared: "shared"
        case .unsatisfiable: "unsatisfiable"
        @unknown default: "cache"
        }
    }

    /// The status class: `2xx`, `3xx`, `4xx`, `5xx`, or `1xx`.
    /// - Parameter statusCode: The status code.
    /// - Returns: The class.
    public static func statusClass(_ statusCode: Int) -> String {
        "\(min(max(statusCode / 100, 1), 5))xx"
    }

    /// OpenTelemetry's `error.type` for a failure: the status code for a rejected response (as
    /// the HTTP conventions say), the transport failure's kind (`timedOut`, `cannotConnect`…), a
    /// trust policy's refusal (`pinMismatch`, `trustNotEnforceable`, `cleartextToPinnedHost`,
    /// `unusableCertificate`), a redirect from https to http refused (`redirectDowngrade`), a
    /// resilience policy's refusal (`circuitOpen`…), `cancelled`, or the
    /// stage that failed (`building`, `adapting`, `transfer`…).
    /// - Parameter error: The failure.
    /// - Returns: The error type.
    public static func errorType(_ error: CourierError) -> String {
        switch error {
        case .statusCode(let response): String(response.statusCode)
        case .transport(let failure as TransportFailure, _): failure.kind.rawValue
        case .transport(let refusal as ResilienceError, _): Self.refusal(refusal)
        case .transport(let trust as TrustFailure, _): Self.trust(trust)
        case .transport(is RedirectError, _): "redirectDowngrade"
        case .cancelled: "cancelled"
        default: error.stage.rawValue
        }
    }

    /// A resilience policy's refusal: `circuitOpen`, `queueFull`, `queueTimedOut`, `rateLimited`,
    /// `backingOff`, `rateLimitExhausted`, or `resilience` for a later kind.
    private static func refusal(_ refusal: ResilienceError) -> String {
        switch refusal {
        case .circuitOpen: "circuitOpen"
        case .queueFull: "queueFull"
        case .queueTimedOut: "queueTimedOut"
        case .rateLimited: "rateLimited"
        case .backingOff: "backingOff"
        case .rateLimitExhausted: "rateLimitExhausted"
        @unknown default: "resilience"
        }
    }

    /// A trust policy's refusal: a pin mismatch is a security event of its own, apart from other
    /// transport failures.
    private static func trust(_ failure: TrustFailure) -> String {
        switch failure {
        case .pinMismatch: "pinMismatch"
        case .notEnforceable: "trustNotEnforceable"
        case .cleartext: "cleartextToPinnedHost"
        case .unusableCertificate: "unusableCertificate"
        @unknown default: "trust"
        }
    }

    /// The request's method, or `GET` when it has none; methods outside RFC 9110's set are
    /// `_OTHER`, as OpenTelemetry's conventions say, to keep the label bounded.
    /// - Parameter request: The request.
    /// - Returns: The method.
    public static func method(_ request: URLRequest) -> String {
        bounded(request.httpMethod ?? "GET")
    }

    /// The method, bounded as ``method(_:)-(URLRequest)`` bounds it.
    /// - Parameter method: The target's method.
    /// - Returns: The method.
    public static func method(_ method: HTTPMethod) -> String {
        bounded(method.rawValue)
    }

    private static func bounded(_ method: String) -> String {
        if knownMethods.contains(method) { return method }
        let method = method.uppercased()
        return knownMethods.contains(method) ? method : "_OTHER"
    }

    private static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
    ]
}
