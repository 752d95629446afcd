import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target that wraps any other target, so one provider can serve several API enums.
///
/// ```swift
/// let provider = Provider<MultiTarget>()
/// let user = try await provider.request(MultiTarget(GitHub.user("octocat")))
/// let status = try await provider.request(.target(Status.current))
/// ```
/// Plugins and interceptors receive the ``MultiTarget``, as in Moya; reach the wrapped one with
/// ``TargetType/underlyingTarget(as:)`` (or ``target``). Authenticators receive the wrapped target.
public enum MultiTarget: TargetWrapper {
    /// The wrapped target.
    case target(any TargetType)

    /// Wraps `target`.
    /// - Parameter target: The target to wrap.
    public init(_ target: any TargetType) {
        self = .target(target)
    }

    /// The wrapped target.
    public var target: any TargetType {
        switch self {
        case .target(let target): target
        }
    }

    /// The wrapped target.
    public var wrappedTarget: any TargetType { target }

    /// The wrapped target's base URL.
    public var baseURL: URL { target.baseURL }
    /// The wrapped target's path.
    public var path: String { target.path }
    /// The wrapped target's method.
    public var method: HTTPMethod { target.method }
    /// The wrapped target's task.
    public var task: HTTPTask { target.task }
    /// The wrapped target's headers.
    public var headers: [String: String]? { target.headers }
    /// The wrapped target's validation.
    public var validationType: ValidationType { target.validationType }
    /// The wrapped target's sample data.
    public var sampleData: Data { target.sampleData }
    /// The wrapped target's sample stream.
    public var sampleStream: SampleStream? { target.sampleStream }
    /// The wrapped target's timeout.
    public var timeoutInterval: TimeInterval? { target.timeoutInterval }
    /// The wrapped target's total timeout.
    public var totalTimeoutInterval: TimeInterval? { target.totalTimeoutInterval }
    /// The wrapped target's header fields.
    public var headerFields: HeaderFields? { target.headerFields }
    /// The wrapped target's idempotency.
    public var idempotency: Idempotency { target.idempotency }
    /// The wrapped target's cache policy.
    public var cachePolicy: URLRequest.CachePolicy? { target.cachePolicy }
    /// Whether the wrapped target handles cookies.
    public var handlesCookies: Bool { target.handlesCookies }
    /// The wrapped target's resilience policy.
    public var resilience: ResiliencePolicy? { target.resilience }
    /// The wrapped target's trust policy.
    public var trustPolicy: TrustPolicy? { target.trustPolicy }
}
