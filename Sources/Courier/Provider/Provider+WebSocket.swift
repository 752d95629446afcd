import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// WebSocket targets: any target opens as a socket, its opening handshake a request of the
/// pipeline.
extension Provider {
    /// Opens `target` as a WebSocket: its opening handshake goes through the whole pipeline, as a
    /// request does, then the socket is yours.
    ///
    /// ```swift
    /// let socket = try await provider.webSocket(.chat(room: 42))
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages { print(message) }
    /// ```
    /// The target's URL may be `ws:`/`wss:` or `http:`/`https:` (the same origin as the API's
    /// requests: cookies, trust policies and recordings treat it so); its method is `GET` and its
    /// task has no body (URL parameters are fine). The handshake is one request in the documented
    /// call order (<doc:CallOrder>): `prepare`, `willSend`, the interceptor's `adapt` (a token),
    /// the jar's cookies, `willTransmit`, the trust policy, the upgrade, validation (a 101 is
    /// accepted, any other status is a refusal), `retry` (a 401 refreshes the credential once for
    /// every waiting socket and request), the resilience policy's limits and breaker, then
    /// `didReceive` and `process`. A redirect is not followed, and the cache never answers.
    ///
    /// A stubbed target (the provider's `stubClosure`) opens on a scripted peer instead:
    /// ``TargetType/sampleWebSocket``.
    /// - Parameters:
    ///   - target: The target.
    ///   - options: Subprotocols, limits and heartbeat; the defaults otherwise.
    /// - Returns: The open socket.
    /// - Throws: ``CourierError``: ``CourierError/statusCode(_:)`` with a refusal's response,
    ///   ``CourierError/requestBuilding(_:)`` with a ``WebSocketError`` for a target that cannot
    ///   open as a socket, or with ``RequestValidationError/unsupportedOptions(_:transport:)`` on an
    ///   engine that cannot open sockets (URLSession on Linux: no hook runs, nothing is sent), or
    ///   the transport's error.
    public func webSocket(
        _ target: Target, options: WebSocketOptions = WebSocketOptions()
    ) async throws(CourierError) -> WebSocket {
        // An engine that cannot open sockets is known before any hook runs: nothing is sent.
        if stubClosure(target) == .never, !transport.capabilities.contains(.webSocket) {
            throw .requestBuilding(
                RequestValidationError.unsupportedOptions(
                    .webSocket, transport: String(describing: type(of: transport))))
        }
        let opening = try await openSocket(target, options)
        let observer = WebSocketObserver(plugins: plugins, target: target)
        return WebSocket(opening, observer: observer, options: options) { () async throws(CourierError) in
            try await self.openSocket(target, options)
        }
    }

    /// One opening handshake of `target`, through the whole pipeline.
    private func openSocket(_ target: Target, _ options: WebSocketOptions) async throws(CourierError)
        -> WebSocketOpening
    {
        let upgrade = WebSocketUpgrade(options, script: target.sampleWebSocket)
        let result = await perform(target, socket: upgrade)
        let connection = upgrade.take()
        switch result {
        case .success(let response):
            guard let connection, let requestID = upgrade.requestID else {
                throw .underlying(WebSocketError.notUpgraded(status: response.statusCode), response)
            }
            return WebSocketOpening(connection: connection, response: response, requestID: requestID)
        case .failure(let error):
            // A plugin's `process` may turn an open socket into a failure: it is closed.
            await connection?.close(code: .goingAway, reason: "")
            throw error
        }
    }
}
