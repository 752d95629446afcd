import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an ``Authenticator``'s refresh gets besides the credential: the target whose request
/// asked for it, and a way to send the refresh call through the same provider (one set of
/// plugins and logs), with no reference to keep and no retain cycle.
///
/// ```swift
/// func refresh(_ credential: Token, context: RefreshContext) async throws -> Token {
///     try await context.send(API.refresh(credential.refreshToken)).map(Token.self)
/// }
/// ```
/// A request sent during a refresh is not signed by the interceptor running that refresh and
/// never waits for it (a 401 it gets is not refreshed either): nothing can deadlock, whether it
/// goes through ``send(_:)`` or through a provider the authenticator keeps.
public struct RefreshContext: Sendable {
    /// The underlying target (``TargetType/underlyingTarget``) of the request that asked for the
    /// refresh.
    public let target: any TargetType
    let sender: (any RequestSending)?

    /// Creates a context; ``send(_:)`` then fails, having no provider to send through.
    /// - Parameter target: The target that asked for the refresh.
    public init(target: any TargetType) {
        self.init(target: target, sender: nil)
    }

    init(target: any TargetType, sender: (any RequestSending)?) {
        self.target = target
        self.sender = sender
    }

    /// Tells the plugins of the provider whose request asked for the refresh how it went.
    func report(_ refresh: CredentialRefresh) {
        sender?.report(refresh, target: target)
    }

    /// Sends `target` through the provider whose request asked for the refresh: its plugins, its
    /// interceptor (this refresh's interceptor leaves it alone), its transport or stubs.
    /// - Parameter target: A target of the provider's type, or any target for a
    ///   `Provider<MultiTarget>` (it is wrapped).
    /// - Returns: The response.
    /// - Throws: The request's ``CourierError``; ``CourierError/requestBuilding(_:)`` with
    ///   ``RequestValidationError/unexpectedTarget(_:provider:)`` when the provider cannot take
    ///   `target`, or when there is no provider (a context made by hand).
    public func send(_ target: any TargetType) async throws(CourierError) -> Response {
        guard let sender else {
            throw CourierError.requestBuilding(
                RequestValidationError.unexpectedTarget(String(describing: type(of: target)), provider: "none"))
        }
        return try await sender.send(target)
    }
}
