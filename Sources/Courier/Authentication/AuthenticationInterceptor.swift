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
///   exactly one refresh runs; the others wait for it and then retry with the new credential. The
///   interceptor remembers which credential signed each attempt: an attempt signed with an older
///   credential than the current one retries at once, without a refresh.
/// - A request is retried for authentication at most ``maximumRetries`` times; after that it fails
///   with the server's answer (``CourierError/statusCode(_:)``).
/// - A failed refresh fails every request that began before it, whether it waited in `adapt` or
///   after a 401, with one error: ``CourierError/adaptation(_:request:)`` carrying
///   ``AuthenticationError/refreshFailed(_:)`` (with the authenticator's error). `onRefreshFailure`
///   is called once for that refresh: the place to clear tokens and sign out. A request that begins
///   later may refresh again, and more refreshes than the ``RefreshWindow`` allows fail with
///   ``AuthenticationError/excessiveRefresh(attempts:interval:)``, reported once.
/// - No credential: the authenticator's ``Authenticator/signIn(context:)`` is asked for one, once
///   however many requests wait (as a refresh); when it has none (its default),
///   ``AuthenticationError/missingCredential``, and nothing is sent. A request whose
///   ``Authenticator/credentialRequirement(for:target:)`` is ``CredentialRequirement/optional``
///   is sent unsigned instead, and only a 401 to it asks for a sign-in.
/// - A request sent during this interceptor's refresh (the refresh call itself, through
///   ``RefreshContext/send(_:)`` or any provider carrying this interceptor) is neither signed
///   nor held, and its 401 is not refreshed: a refresh never waits for itself.
/// - The authenticator sees each request's ``TargetType/underlyingTarget``: with a
///   `Provider<MultiTarget>`, your API's enum.
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

    /// A failed refresh (or a tripped refresh window) and the requests it fails.
    private struct Failure {
        /// The credential version that could not be refreshed.
        let version: Int
        /// Its position among failures: it fails the requests that began before it.
        let epoch: Int
        let error: any Error
    }

    private struct State {
        var credential: Credential?
        /// Bumped with every new credential, so a refresh knows whether another already happened.
        var version = 0
        var refresh: Task<Void, any Error>?
        var failure: Failure?
        /// How many refreshes failed so far.
        var epoch = 0
        var refreshTimes: [Date] = []
        /// Whether the tripped window was reported since the last good credential.
        var excessReported = false

        /// The failure a request that began at `epoch` must fail with, if any.
        func failure(since epoch: Int) -> (any Error)? {
            guard let failure, failure.version == version, failure.epoch > epoch else { return nil }
            return failure.error
        }
    }

    /// What the interceptor remembers about one request.
    private struct Signature: Sendable {
        /// How many refreshes had failed when the request was first adapted.
        let epoch: Int
        /// The credential version that signed the latest attempt.
        var version: Int?
        /// Authentication retries so far.
        var retries = 0
    }

    /// Your authentication scheme.
    public let authenticator: Authenticator
    /// The refresh-loop guard, or `nil` for none.
    public let refreshWindow: RefreshWindow?
    /// The most authentication retries of one request.
    public let maximumRetries: Int
    /// Called with a refreshed credential once it is in use, and with the interceptor; may await
    /// (a keychain or a database): the requests that waited go on once it returns. A synchronous
    /// closure fits too.
    public typealias RefreshHandler =
        @Sendable (_ credential: Credential, _ interceptor: AuthenticationInterceptor) async -> Void
    /// Called with the error of a failed refresh, and with the interceptor; may await, as
    /// ``RefreshHandler``.
    public typealias RefreshFailureHandler =
        @Sendable (_ error: any Error, _ interceptor: AuthenticationInterceptor) async -> Void

    private let onRefresh: RefreshHandler?
    private let onRefreshFailure: RefreshFailureHandler?
    private let state: Locked<State>

    /// Creates an interceptor.
    /// - Parameters:
    ///   - authenticator: Your authentication scheme.
    ///   - credential: The current credential, or `nil` until the user signs in.
    ///   - refreshWindow: The refresh-loop guard; 5 refreshes within 30 s by default.
    ///   - maximumRetries: The most authentication retries of one request; 3 by default.
    ///   - onRefresh: Called after each successful refresh with the new credential, before the
    ///     requests that waited for it go on: persist it there (it may await a keychain or a
    ///     database; they go on once it returns).
    ///   - onRefreshFailure: Called once for each failed refresh, with the error the waiting
    ///     requests fail with (``AuthenticationError/refreshFailed(_:)`` or
    ///     ``AuthenticationError/excessiveRefresh(attempts:interval:)``) and this interceptor: clear
    ///     the stored tokens and sign out there (`interceptor.credential = nil`).
    public init(
        authenticator: Authenticator,
        credential: Credential? = nil,
        refreshWindow: RefreshWindow? = RefreshWindow(),
        maximumRetries: Int = 3,
        onRefresh: RefreshHandler? = nil,
        onRefreshFailure: RefreshFailureHandler?
    ) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        self.maximumRetries = max(0, maximumRetries)
        self.onRefresh = onRefresh
        self.onRefreshFailure = onRefreshFailure
        self.state = Locked(State(credential: credential))
    }

    /// Creates an interceptor whose failure handler needs only the error.
    /// - Parameters:
    ///   - authenticator: Your authentication scheme.
    ///   - credential: The current credential, or `nil` until the user signs in.
    ///   - refreshWindow: The refresh-loop guard; 5 refreshes within 30 s by default.
    ///   - maximumRetries: The most authentication retries of one request; 3 by default.
    ///   - onRefresh: Called after each successful refresh with the new credential.
    ///   - onRefreshFailure: Called once for each failed refresh, with the error the waiting
    ///     requests fail with.
    public convenience init(
        authenticator: Authenticator,
        credential: Credential? = nil,
        refreshWindow: RefreshWindow? = RefreshWindow(),
        maximumRetries: Int = 3,
        onRefresh: RefreshHandler? = nil,
        onRefreshFailure: (@Sendable (any Error) async -> Void)? = nil
    ) {
        var failureHandler: RefreshFailureHandler?
        if let onRefreshFailure {
            failureHandler = { error, _ in await onRefreshFailure(error) }
        }
        self.init(
            authenticator: authenticator, credential: credential, refreshWindow: refreshWindow,
            maximumRetries: maximumRetries, onRefresh: onRefresh, onRefreshFailure: failureHandler)
    }

    /// The current credential. Setting it (after a sign-in, or to `nil` at sign-out) takes effect
    /// for every request adapted from then on, and clears a failed refresh.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set {
            state.withLock { state in
                state.credential = newValue
                state.version += 1
                state.failure = nil
                state.excessReported = false
            }
        }
    }

    /// `true`: `adapt` waits only for a refresh, and bounds that wait by the request's total
    /// timeout itself (``RequestContext/withinTotalTimeout(_:)``).
    public var boundsItsWaits: Bool { true }

    /// Signs the request with the current credential, refreshing it first when it requires so.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: The target and the attempt number.
    /// - Returns: The signed request.
    /// - Throws: ``AuthenticationError/missingCredential``, or the error of a refresh that failed
    ///   since the request began.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        // The request begins before the authenticator is asked anything: a refresh that fails
        // from here on fails this request too.
        // A request the refresh sends is neither signed nor held: it would wait for itself.
        guard !RefreshScope.isRefreshing(self) else { return request }
        var signature = context.storage.value(for: self, as: Signature.self) ?? Signature(epoch: state.value.epoch)
        let requirement = authenticator.credentialRequirement(for: request, target: context.target.underlyingTarget)
        guard requirement != .none else { return request }
        var refreshed = false
        while true {
            let (credential, version, pending, failure) = state.withLock { state in
                (state.credential, state.version, state.refresh, state.failure(since: signature.epoch))
            }
            if let failure { throw failure }
            if let pending {
                try await context.withinTotalTimeout { try await SharedTask.value(of: pending) }
                continue
            }
            guard let credential else {
                if requirement == .optional, !refreshed {
                    // Sent unsigned; a 401 to it signs in (the version tells `retry` none signed it).
                    signature.version = version
                    context.storage.set(signature, for: self)
                    return request
                }
                // No credential yet: sign in once (as a refresh), then sign with it.
                guard !refreshed else { throw AuthenticationError.missingCredential }
                refreshed = true
                try await boundedRefresh(from: version, since: signature.epoch, context: context)
                continue
            }
            if credential.requiresRefresh && !refreshed {
                refreshed = true
                try await boundedRefresh(from: version, since: signature.epoch, context: context)
                continue
            }
            signature.version = version
            context.storage.set(signature, for: self)
            return authenticator.apply(credential, to: request)
        }
    }

    /// Refreshes the credential after an authentication failure and retries; passes on anything else.
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - error: The attempt's error.
    ///   - context: The target, the attempt number and the response.
    /// - Returns: `.retry` once a newer credential exists; `.doNotRetryWithError` with
    ///   ``CourierError/adaptation(_:request:)`` when no credential can be had; `.doNotRetry` for
    ///   other failures and after ``maximumRetries``.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    {
        guard let response = context.response, !RefreshScope.isRefreshing(self),
            authenticator.credentialRequirement(for: request, target: context.target.underlyingTarget) != .none,
            authenticator.isAuthenticationFailure(request, response: response)
        else { return .doNotRetry }
        let stored = context.storage.value(for: self, as: Signature.self)
        var signature = stored ?? Signature(epoch: state.value.epoch)
        guard signature.retries < maximumRetries else { return .doNotRetry }
        signature.retries += 1
        context.storage.set(signature, for: self)
        let (credential, version) = state.withLock { ($0.credential, $0.version) }
        // Which credential signed the attempt: remembered by `adapt`; asked of the authenticator
        // only for a context made by hand. Without a credential (signed out since), sign in.
        let signedWithCurrent =
            stored?.version.map { $0 == version }
            ?? credential.map { authenticator.isRequest(request, authenticatedWith: $0) } ?? true
        context.markRetry(.reauthentication)
        guard signedWithCurrent else { return .retry }
        do {
            try await refresh(from: version, since: signature.epoch, context: context)
            return .retry
        } catch {
            return Self.unauthenticated(error, request, received: response)
        }
    }

    /// The one shape of "no credential could be had", wherever the request waited for it: the
    /// same case for every request, carrying the authentication failure a request received.
    private static func unauthenticated(_ error: any Error, _ request: URLRequest, received: Response?) -> RetryResult {
        if error is CancellationError { return .doNotRetryWithError(CourierError.cancelled) }
        let kept = (error as? AuthenticationError)?.received(received) ?? error
        return .doNotRetryWithError(CourierError.adaptation(kept, request: request))
    }

    /// Waits until the credential of `version` has been replaced: joins the refresh in progress,
    /// or starts one. Returns at once when it has been replaced already; throws the failure of a
    /// refresh that failed after `epoch`.
    /// ``refresh(from:since:context:)`` within what is left of the request's total timeout: the
    /// only waits of `adapt`, so the provider runs it without a limit of its own around it.
    private func boundedRefresh(from version: Int, since epoch: Int, context: RequestContext) async throws {
        try await context.withinTotalTimeout { [self] in
            try await refresh(from: version, since: epoch, context: context)
        }
    }

    private func refresh(from version: Int, since epoch: Int, context: RequestContext) async throws {
        let refreshContext = context.refreshContext
        let outcome = state.withLock { state in
            startOrJoinRefresh(from: version, since: epoch, context: refreshContext, &state)
        }
        switch outcome {
        case .replaced: return
        case .wait(let task): try await SharedTask.value(of: task)
        case .fail(let error, let notify):
            if notify { await onRefreshFailure?(error, self) }
            throw error
        }
    }

    private enum RefreshStart {
        case replaced
        case wait(Task<Void, any Error>)
        case fail(any Error, notify: Bool)
    }

    private func startOrJoinRefresh(
        from version: Int, since epoch: Int, context: RefreshContext, _ state: inout State
    ) -> RefreshStart {
        guard state.version == version else { return .replaced }
        if let running = state.refresh { return .wait(running) }
        if let failure = state.failure(since: epoch) { return .fail(failure, notify: false) }
        let credential = state.credential
        // A sign-in (no credential yet) is not a refresh loop: only refreshes count.
        if let window = refreshWindow, credential != nil {
            let now = Date()
            state.refreshTimes.removeAll { now.timeIntervalSince($0) >= window.interval }
            guard state.refreshTimes.count < window.maximumAttempts else {
                let error = AuthenticationError.excessiveRefresh(
                    attempts: state.refreshTimes.count, interval: window.interval)
                state.epoch += 1
                state.failure = Failure(version: version, epoch: state.epoch, error: error)
                let notify = !state.excessReported
                state.excessReported = true
                return .fail(error, notify: notify)
            }
            state.refreshTimes.append(now)
        }
        let task = Task { try await self.performRefresh(of: credential, version: version, context: context) }
        state.refresh = task
        return .wait(task)
    }

    /// Refreshes `credential`, or signs in when there is none, and tells the provider's plugins.
    private func performRefresh(of credential: Credential?, version: Int, context: RefreshContext) async throws {
        let stopwatch = Stopwatch()
        let kind: CredentialRefresh.Kind = credential == nil ? .signIn : .refresh
        do {
            try await obtainCredential(refreshing: credential, version: version, context: context)
            context.report(CredentialRefresh(kind: kind, duration: stopwatch.elapsed))
        } catch AuthenticationError.missingCredential {
            // No way to sign in: nothing ran that a plugin would count.
            throw AuthenticationError.missingCredential
        } catch {
            context.report(CredentialRefresh(kind: kind, duration: stopwatch.elapsed, error: error))
            throw error
        }
    }

    private func obtainCredential(
        refreshing credential: Credential?, version: Int, context: RefreshContext
    ) async throws {
        let obtained: Credential?
        do {
            obtained = try await RefreshScope.run(as: self) {
                if let credential { return try await authenticator.refresh(credential, context: context) }
                return try await authenticator.signIn(context: context)
            }
        } catch {
            let failure = AuthenticationError.refreshFailed(error)
            state.withLock { state in
                state.refresh = nil
                state.epoch += 1
                state.failure = Failure(version: version, epoch: state.epoch, error: failure)
            }
            await onRefreshFailure?(failure, self)
            throw failure
        }
        guard let refreshed = obtained else {
            // An authenticator that cannot sign in: nothing failed, there is just no credential.
            state.withLock { $0.refresh = nil }
            throw AuthenticationError.missingCredential
        }
        let stored = state.withLock { state in
            state.refresh = nil
            // A credential the app set during the refresh is newer: keep it.
            guard state.version == version else { return false }
            state.credential = refreshed
            state.version += 1
            state.excessReported = false
            return true
        }
        if stored { await onRefresh?(refreshed, self) }
    }
}
