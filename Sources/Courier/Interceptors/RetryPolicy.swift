import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retries failed attempts that are safe and likely to succeed later, with exponential backoff.
///
/// An attempt is retried when all of these hold:
/// - fewer than ``retryLimit`` retries were made (the default, 2, means at most 3 attempts);
/// - the method is in ``retryableHTTPMethods`` (idempotent methods by default; not `POST`), or
///   the target's ``TargetType/idempotency`` gives the request an idempotency key (then any
///   method is), and the target is not ``Idempotency/never`` idempotent;
/// - the response status is in ``retryableHTTPStatusCodes`` (408, 429, 500, 502, 503, 504), or the
///   transport failed with a code in ``retryableURLErrorCodes`` (connection lost, timed out,
///   cannot connect, DNS failure…).
///
/// A TLS failure is not transient and is not retried by default: a certificate that does not
/// validate (untrusted, expired or not yet valid, for another host) or a handshake the server
/// refused (its alert, such as `certificate required` or `unknown CA` for a client certificate)
/// fails the same way on the next attempt, as OkHttp does not recover from certificate
/// exceptions. Every engine reports such a failure as
/// ``TransportFailure/Kind/secureConnectionFailed`` (`URLError.secureConnectionFailed`), which is
/// not in ``defaultRetryableURLErrorCodes`` (a pin that does not match is a ``TrustFailure``, never
/// retried either); a connection that resets or closes during the handshake
/// is a network event, reported as ``TransportFailure/Kind/connectionLost``, and retried as one. Add
/// `.secureConnectionFailed` to ``retryableURLErrorCodes`` to retry TLS failures anyway.
///
/// The delay before retry *n* (1, 2, …) is at most `exponentialBackoffScale ×
/// exponentialBackoffBase^(n-1)` (0.5 s, then 1 s by default), spread by ``jitter``: full jitter by
/// default, a random delay between 0 and that, so that clients that failed together do not retry
/// together. A `Retry-After` header (seconds or an HTTP date) replaces the computed delay when it
/// is at most ``maximumRetryAfter``, plus a spread of up to a tenth of it (at most a second); when
/// a server asks for longer, the request fails at once rather than waiting. A rate limit that a
/// `429` or `403` says is spent (`x-ratelimit-remaining: 0` with `x-ratelimit-reset`, as GitHub
/// answers, or the IETF `RateLimit` fields) counts the same: no retry before its reset, and none
/// at all when the reset is further than ``maximumRetryAfter``. A `403` is retried only as such a
/// rate limit (as a `429`), never as a permission denied.
///
/// Status codes reach a retrier only when the target's ``TargetType/validationType`` rejects them:
/// with `.none`, a 503 is a success and nothing retries it.
/// ```swift
/// let provider = Provider<API>(interceptor: .retryPolicy)
/// let patient = Provider<API>(interceptor: .retryPolicy(retryLimit: 5, maximumRetryAfter: 120))
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// `true`: the policy adapts nothing, so it waits for nothing.
    public var boundsItsWaits: Bool { true }

    /// How a computed delay is spread, so that many clients do not retry in lockstep.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
    public enum Jitter: Sendable, Hashable {
        /// The delay as computed.
        case none
        /// A random delay between 0 and the computed one ("full jitter").
        case full
        /// A random delay within ± the fraction of the computed one, for example `0.2` for ±20 %.
        case proportional(Double)
    }

    /// The default retry limit: 2 retries, so at most 3 attempts.
    public static let defaultRetryLimit = 2
    /// The default backoff base: each delay doubles.
    public static let defaultExponentialBackoffBase = 2.0
    /// The default backoff scale: the first delay is half a second.
    public static let defaultExponentialBackoffScale = 0.5
    /// The default longest `Retry-After` honoured: one minute.
    public static let defaultMaximumRetryAfter: TimeInterval = 60
    /// The idempotent methods: `DELETE`, `GET`, `HEAD`, `OPTIONS`, `PUT`, `TRACE`.
    public static let defaultRetryableHTTPMethods: Set<HTTPMethod> = [.delete, .get, .head, .options, .put, .trace]
    /// 408 Request Timeout, 429 Too Many Requests, 500, 502, 503 and 504.
    public static let defaultRetryableHTTPStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Transport failures that a later attempt may not meet. No TLS failure is among them
    /// (`secureConnectionFailed`, the `serverCertificate…` and `clientCertificate…` codes): a
    /// certificate that does not validate, or a handshake the server refused, fails again.
    public static let defaultRetryableURLErrorCodes: Set<URLError.Code> = [
        .backgroundSessionInUseByAnotherProcess, .backgroundSessionWasDisconnected, .badServerResponse,
        .callIsActive, .cannotConnectToHost, .cannotFindHost, .cannotLoadFromNetwork, .dataNotAllowed,
        .dnsLookupFailed, .downloadDecodingFailedMidStream, .downloadDecodingFailedToComplete,
        .internationalRoamingOff, .networkConnectionLost, .notConnectedToInternet, .timedOut,
    ]

    /// How many retries at most.
    public var retryLimit: Int
    /// The factor by which each delay grows.
    public var exponentialBackoffBase: Double
    /// The first delay, in seconds.
    public var exponentialBackoffScale: Double
    /// How delays are spread.
    public var jitter: Jitter
    /// The longest `Retry-After` honoured, in seconds; a longer one fails the request at once.
    public var maximumRetryAfter: TimeInterval
    /// The methods that may be retried.
    public var retryableHTTPMethods: Set<HTTPMethod>
    /// The status codes that may be retried.
    public var retryableHTTPStatusCodes: Set<Int>
    /// The transport error codes that may be retried.
    public var retryableURLErrorCodes: Set<URLError.Code>

    /// Creates a policy; every setting has the default documented on its `default…` constant.
    /// - Parameters:
    ///   - retryLimit: How many retries at most.
    ///   - exponentialBackoffBase: The factor by which each delay grows.
    ///   - exponentialBackoffScale: The first delay, in seconds.
    ///   - jitter: How delays are spread; ``Jitter/full`` by default.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured, in seconds.
    ///   - retryableHTTPMethods: The methods that may be retried.
    ///   - retryableHTTPStatusCodes: The status codes that may be retried.
    ///   - retryableURLErrorCodes: The transport error codes that may be retried.
    public init(
        retryLimit: Int = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: Double = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        jitter: Jitter = .full,
        maximumRetryAfter: TimeInterval = RetryPolicy.defaultMaximumRetryAfter,
        retryableHTTPMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableHTTPMethods,
        retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
        retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes
    ) {
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.jitter = jitter
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableHTTPMethods = retryableHTTPMethods
        self.retryableHTTPStatusCodes = retryableHTTPStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
    }

    /// Decides with ``decision(for:random:now:)``, using the system's random numbers and the
    /// provider's clock (``RequestContext/clock``).
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - error: The attempt's error.
    ///   - context: The attempt number and the response.
    /// - Returns: `.retryWithDelay` or `.doNotRetry`.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    {
        var attempt = Attempt(
            request: request, error: error, number: context.attempt, idempotency: context.target.idempotency)
        attempt.resumesTransfer = context.resumesTransfer
        return decision(for: attempt, random: .random(in: 0..<1), now: context.clock.date())
    }

    /// What a ``RetryPolicy`` decides from: the failed attempt's request, error and number.
    public struct Attempt: Sendable {
        /// The attempt's request.
        public var request: URLRequest
        /// The attempt's error; its response, if any, gives the status code and `Retry-After`.
        public var error: CourierError
        /// The attempt number, starting at 1.
        public var number: Int
        /// The target's idempotency: a request made idempotent by a key is retried whatever its
        /// method; one that is never idempotent is never retried.
        public var idempotency: Idempotency
        /// Whether the request is a resumable transfer (``RequestContext/resumesTransfer``): it is
        /// retried whatever its method, unless its idempotency is ``Idempotency/never``.
        public var resumesTransfer = false

        /// Describes a failed attempt.
        /// - Parameters:
        ///   - request: The attempt's request.
        ///   - error: The attempt's error.
        ///   - number: The attempt number, starting at 1.
        ///   - idempotency: The target's idempotency; ``Idempotency/byMethod`` by default.
        public init(request: URLRequest, error: CourierError, number: Int, idempotency: Idempotency = .byMethod) {
            self.request = request
            self.error = error
            self.number = number
            self.idempotency = idempotency
        }
    }

    /// The policy's decision about a failed attempt: a pure function of its inputs.
    /// - Parameters:
    ///   - attempt: The failed attempt.
    ///   - random: A number in `0..<1` that picks the jitter (and a `Retry-After`'s spread).
    ///   - now: The current time, for `Retry-After` dates.
    /// - Returns: `.retryWithDelay(seconds)` or `.doNotRetry`.
    public func decision(for attempt: Attempt, random: Double, now: Date) -> RetryResult {
        let asked = attempt.error.response.flatMap {
            ServerWait.announced(status: $0.statusCode, fields: $0.headerFields, now: now)
        }
        guard attempt.number <= retryLimit, isRetryable(attempt, announced: asked) else { return .doNotRetry }
        if let asked {
            // Never before the server said; never at all when that is further than we wait.
            guard asked.seconds <= maximumRetryAfter else { return .doNotRetry }
            return .retryWithDelay(asked.seconds + min(1, asked.seconds / 10) * random)
        }
        return .retryWithDelay(delay(beforeRetry: attempt.number, random: random))
    }

    /// The delay before retry `retry` (1, 2, …), with the jitter `random` picks.
    /// - Parameters:
    ///   - retry: The retry number, starting at 1.
    ///   - random: A number in `0..<1`.
    /// - Returns: The delay in seconds.
    public func delay(beforeRetry retry: Int, random: Double) -> TimeInterval {
        let computed = exponentialBackoffScale * pow(exponentialBackoffBase, Double(max(0, retry - 1)))
        switch jitter {
        case .none: return computed
        case .full: return computed * random
        case .proportional(let fraction): return max(0, computed * (1 + fraction * (2 * random - 1)))
        }
    }

    /// Whether the attempt may be retried at all. A `403` that announces a rate limit (a
    /// `Retry-After`, or `x-ratelimit-remaining: 0` with a reset) counts as the `429` it means;
    /// any other `403` is a refusal and is never retried.
    private func isRetryable(_ attempt: Attempt, announced: ServerWait?) -> Bool {
        let method = HTTPMethod(rawValue: attempt.request.httpMethod ?? "GET")
        switch attempt.idempotency.mode {
        case .byMethod: guard attempt.resumesTransfer || retryableHTTPMethods.contains(method) else { return false }
        // A key makes any method safe to retry, when the request carries it.
        case .key: guard attempt.idempotency.allowsResending(attempt.request) else { return false }
        case .never: return false
        }
        switch attempt.error {
        case .statusCode(let response):
            let status = response.statusCode == 403 && announced?.isRateLimit == true ? 429 : response.statusCode
            return retryableHTTPStatusCodes.contains(status)
        case .transport(let error, _):
            let code = (error as? TransportFailure)?.code ?? (error as? URLError)?.code
            return code.map { retryableURLErrorCodes.contains($0) } ?? false
        default:
            return false
        }
    }
}

extension RequestInterceptor where Self == RetryPolicy {
    /// A ``RetryPolicy`` with the default settings.
    public static var retryPolicy: RetryPolicy { RetryPolicy() }

    /// A ``RetryPolicy`` with the given settings.
    /// - Parameters:
    ///   - retryLimit: How many retries at most.
    ///   - exponentialBackoffBase: The factor by which each delay grows.
    ///   - exponentialBackoffScale: The first delay, in seconds.
    ///   - jitter: How delays are spread.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured, in seconds.
    /// - Returns: The policy.
    public static func retryPolicy(
        retryLimit: Int = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: Double = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        jitter: RetryPolicy.Jitter = .full,
        maximumRetryAfter: TimeInterval = RetryPolicy.defaultMaximumRetryAfter
    ) -> RetryPolicy {
        RetryPolicy(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, jitter: jitter, maximumRetryAfter: maximumRetryAfter)
    }

    /// A ``RetryPolicy`` that retries only lost connections (`URLError.networkConnectionLost`),
    /// with the default limit and backoff.
    public static var connectionLostRetryPolicy: RetryPolicy {
        RetryPolicy(retryableHTTPStatusCodes: [], retryableURLErrorCodes: [.networkConnectionLost])
    }
}
