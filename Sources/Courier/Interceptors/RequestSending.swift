/// What can send a target through a whole pipeline: the provider a request belongs to, as its
/// ``RequestContext`` carries it, so that an authenticator's refresh can go through it.
protocol RequestSending: Sendable {
    /// Sends `target` (or, for a `Provider<MultiTarget>`, the target wrapped) and returns the
    /// response.
    func send(_ target: any TargetType) async throws(CourierError) -> Response

    /// Tells the plugins of the request's provider that a credential refresh ran for `target`.
    func report(_ refresh: CredentialRefresh, target: any TargetType)
}

extension Provider: RequestSending {
    func send(_ target: any TargetType) async throws(CourierError) -> Response {
        try await request(try Self.accepted(target))
    }

    func report(_ refresh: CredentialRefresh, target: any TargetType) {
        for plugin in plugins {
            plugin.didRefreshCredential(refresh, target: target)
        }
    }

    /// `target` as this provider's target: itself, or wrapped in a ``MultiTarget``.
    static func accepted(_ target: any TargetType) throws(CourierError) -> Target {
        if let same = target as? Target { return same }
        if let wrapped = MultiTarget(target) as? Target { return wrapped }
        throw CourierError.requestBuilding(
            RequestValidationError.unexpectedTarget(
                String(describing: type(of: target)), provider: String(describing: Target.self)))
    }
}
