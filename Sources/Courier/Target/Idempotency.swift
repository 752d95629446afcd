import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether sending a target's request twice has the effect of sending it once: what decides
/// whether a transport may resend it after a connection that closed under it, and whether
/// ``RetryPolicy`` may retry it. RFC 9110 §9.2.2: a client does not automatically retry a request
/// that is not idempotent.
///
/// ```swift
/// var idempotency: Idempotency {
///     switch self {
///     case .pay: .idempotencyKey()     // a POST made safe to retry, as Stripe's API allows
///     default: .byMethod
///     }
/// }
/// ```
/// With ``idempotencyKey(header:)`` the provider adds an `Idempotency-Key` header (a random
/// UUID) to the request once, when it builds it, and every attempt sends the same key, so the
/// server can tell a retry from a new request (draft-ietf-httpapi-idempotency-key-header). A key
/// the endpoint sets itself is kept.
public struct Idempotency: Sendable, Hashable {
    enum Mode: Sendable, Hashable {
        case byMethod
        case key(header: String)
        case never
    }

    let mode: Mode

    /// The method decides: `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT` and `DELETE` are idempotent,
    /// `POST`, `PATCH` and others are not. The default.
    public static let byMethod = Idempotency(mode: .byMethod)

    /// Never idempotent, whatever the method: a `PUT` or a `DELETE` with side effects beyond
    /// itself.
    public static let never = Idempotency(mode: .never)

    /// Idempotent through a key: the provider adds `header` with a random UUID once per request,
    /// the same on every attempt.
    /// - Parameter header: The header's name; `Idempotency-Key` by default.
    /// - Returns: The idempotency.
    public static func idempotencyKey(header: String = "Idempotency-Key") -> Idempotency {
        Idempotency(mode: .key(header: header))
    }

    /// The header that carries the key, for ``idempotencyKey(header:)``.
    public var keyHeader: String? {
        if case .key(let header) = mode { return header }
        return nil
    }

    /// The methods idempotent by definition (RFC 9110 §9.2.2).
    static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]

    /// Whether `request` may be sent twice: its method is idempotent (``byMethod``), or it carries
    /// its key (``idempotencyKey(header:)``).
    /// - Parameter request: The request.
    /// - Returns: `true` when sending it again is safe.
    public func allowsResending(_ request: URLRequest) -> Bool {
        switch mode {
        case .byMethod: Self.idempotentMethods.contains(request.httpMethod ?? "GET")
        case .key(let header): request.value(forHTTPHeaderField: header) != nil
        case .never: false
        }
    }
}
