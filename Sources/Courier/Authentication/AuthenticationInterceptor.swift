import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs requests with a credential and refreshes it, once, however many requests need it.
///
/// - `adapt` applies the current credential. A credential whose ``AuthenticationCredential/requiresRefresh``
///   is `true` is refreshed before the request is sent. While a refresh runs, new requests wait for it.
/// - `retry` recognises an authentication failure (401 by default, see
///   ``Authenticator/isAuthenticationFailure(_:response:)``). When many requests fail at once,
///   exactly one refresh runs; the others wait for it and then retry with the new credential. A
///   request signed with an older credential than the current one retries at once.
/// - A failed refresh fails every waiting request with ``AuthenticationError/refreshFailed(_:)``
///   (carrying the authenticator's error), without retries, and calls `onRefreshFailure` once:
///   the place to clear tokens and sign out.
/// - More refreshes than the ``RefreshWindow`` allows fail with
///   ``AuthenticationError/excessiveRefresh(attempts:interval:)``.
/// - No credential: ``AuthenticationError/missingCredential``, and nothing is sent.
///
/// A 401 reaches the retrier only if the target's ``TargetType/validationType`` rejects it
/// (for example `.successCodes`); with `.none` it is a success and nothing refreshes.
/// ```swift
/// let auth = AuthenticationInterceptor(authenticator: OAuthAuthenticator(api: authProvider), credential: stored)
/// let provider = Provider<API>(interceptor: Interceptor(interceptors: [auth, .retryPolicy]))
/// ```
/// Credential storage stays with the app: read ``credential`` after a refresh to persist it.
public final class AuthenticationInterceptor<Authenticator: Courier.Authenticator>: RequestInterceptor {
    /// The credential type.
    public typealias Credential = Authenticator.Credential

    private struct State {
        var credential: Credential?
        /// Bumped with every new credential, so a refresh knows whether another already happened.
        var version = 0
        var refresh: Task<Void, any Error>?
        var failure: (version: Int, error: any Error)?
        var refreshTimes: [Date] = []
    }

    /// Your authentication scheme.
    public let authenticator: Authenticator
    /// The refresh-loop guard, or `nil` for none.
    public let refreshWindow: RefreshWindow?
    private let onRefreshFailure: (@Sendable (any Error) -> Void)?
    private let state: Locked<State>

    /// Creates an interceptor.
    /// - Parameters:
    ///   - authenticator: Your authentication scheme.
    ///   - credential: The current credential, or `nil` until the user signs in.
    ///   - refreshWindow: The refresh-loop guard; 5 refreshes within 30 s by default.
    ///   - onRefreshFailure: Called once for each failed refresh, with the error the waiting
    ///     requests fail with (``AuthenticationError/refreshFailed(_:)`` or
    ///     ``AuthenticationError/excessiveRefresh(attempts:interval:)``).
    public init(
        authenticator: Authenticator,
        credential: Credential? = nil,
        refreshWindow: RefreshWindow? = RefreshWindow(),
        onRefreshFailure: (@Sendable (any Error) -> Void)? = nil
    ) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        self.onRefreshFailure = onRefreshFailure
        self.state = Locked(State(credential: credential))
    }

    /// The current credential. Setting it (after a sign-in, or to `nil` at sign-out) takes effect
    /// for every request adapted from then on.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set {
            state.withLock { state in
                state.credential = newValue
                state.version += 1
                state.failure = nil
            }
        }
    }

    /// Signs the request with the current credential, refreshing it first when it requires so.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: The target and the attempt number.
    /// - Returns: The signed request.
    /// - Throws: ``AuthenticationError/missingCredential``, or the error of a refresh it waited for.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard authenticator.requiresAuthentication(request, target: context.target) else { return request }
        var refreshed = false
        while true {
            let (credential, version, pending) = state.withLock { state in
                // A new request may try again after a failed refresh (the window still bounds it).
                if state.failure?.version == state.version { state.failure = nil }
                return (state.credential, state.version, state.refresh)
            }
            if let pending {
                try await SharedTask.value(of: pending)
                continue
            }
            guard let credential else { throw AuthenticationError.missingCredential }
            if credential.requiresRefresh && !refreshed {
                refreshed = true
                try await refresh(from: version)
                continue
            }
            return authenticator.apply(credential, to: request)
        }
    }

    /// Refreshes the credential after an authentication failure and retries; passes on anything else.
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - error: The attempt's error.
    ///   - context: The target, the attempt number and the response.
    /// - Returns: `.retry` once a newer credential exists, `.doNotRetryWithError` with the refresh
    ///   error, or `.doNotRetry` for other failures.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    {
        guard let response = context.response, authenticator.requiresAuthentication(request, target: context.target),
            authenticator.isAuthenticationFailure(request, response: response)
        else { return .doNotRetry }
        let (credential, version) = state.withLock { ($0.credential, $0.version) }
        guard let credential else { return .doNotRetryWithError(AuthenticationError.missingCredential) }
        if !authenticator.isRequest(request, authenticatedWith: credential) { return .retry }
        do {
            try await refresh(from: version)
            return .retry
        } catch {
            return .doNotRetryWithError(error)
        }
    }

    /// Waits until the credential of `version` has been replaced: joins the refresh in progress,
    /// or starts one. Returns at once when it has been replaced already.
    private func refresh(from version: Int) async throws {
        let outcome = state.withLock { state in startOrJoinRefresh(from: version, &state) }
        switch outcome {
        case .replaced: return
        case .wait(let task): try await SharedTask.value(of: task)
        case .fail(let error, let notify):
            if notify { onRefreshFailure?(error) }
            throw error
        }
    }

    private enum RefreshStart {
        case replaced
        case wait(Task<Void, any Error>)
        case fail(any Error, notify: Bool)
    }

    private func startOrJoinRefresh(from version: Int, _ state: inout State) -> RefreshStart {
        guard state.version == version else { return .replaced }
        if let running = state.refresh { return .wait(running) }
        if let failure = state.failure, failure.version == version { return .fail(failure.error, notify: false) }
        guard let credential = state.credential else {
            return .fail(AuthenticationError.missingCredential, notify: false)
        }
        if let window = refreshWindow {
            let now = Date()
            state.refreshTimes.removeAll { now.timeIntervalSince($0) >= window.interval }
            guard state.refreshTimes.count < window.maximumAttempts else {
                let error = AuthenticationError.excessiveRefresh(
                    attempts: state.refreshTimes.count, interval: window.interval)
                state.failure = (version, error)
                return .fail(error, notify: true)
            }
            state.refreshTimes.append(now)
        }
        let task = Task { try await self.performRefresh(of: credential, version: version) }
        state.refresh = task
        return .wait(task)
    }

    private func performRefresh(of credential: Credential, version: Int) async throws {
        do {
            let refreshed = try await authenticator.refresh(credential)
            state.withLock { state in
                state.refresh = nil
                // A credential the app set during the refresh is newer: keep it.
                guard state.version == version else { return }
                state.credential = refreshed
                state.version += 1
            }
        } catch {
            let failure = AuthenticationError.refreshFailed(error)
            state.withLock { state in
                state.refresh = nil
                state.failure = (version, failure)
            }
            onRefreshFailure?(failure)
            throw failure
        }
    }
}
