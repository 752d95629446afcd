import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Provider {
    /// The endpoint of a target: its URL, method, task, headers, timeout, cache policy, and a
    /// sample response of status 200 with the target's ``TargetType/sampleStream``, or else its
    /// ``TargetType/sampleData`` (read when a stub answers, as in Moya).
    /// - Parameter target: The target.
    /// - Returns: Its endpoint.
    @Sendable public static func defaultEndpointMapping(for target: Target) -> Endpoint {
        defaultEndpoint(for: target, known: JoinedURLs.current)
    }

    /// ``defaultEndpointMapping(for:)``, with the URLs a provider joined before (`known`), so a
    /// target asked for again is not parsed again.
    static func defaultEndpoint(for target: Target, known: JoinedURLs?) -> Endpoint {
        var options = Endpoint.Options(
            timeoutInterval: target.timeoutInterval, totalTimeoutInterval: target.totalTimeoutInterval,
            cachePolicy: target.cachePolicy)
        options.handlesCookies = target.handlesCookies
        let endpoint = Endpoint(
            url: target.url(known: known),
            sampleResponseClosure: {
                target.sampleStream.map { .streamedResponse(200, $0) } ?? .networkResponse(200, target.sampleData)
            },
            method: target.method,
            task: target.task,
            httpHeaderFields: target.headers,
            options: options
        )
        return target.headerFields.map { endpoint.with(headerFields: $0) } ?? endpoint
    }

    /// The request of an endpoint: ``Endpoint/urlRequest()``.
    /// - Parameter endpoint: The endpoint.
    /// - Returns: Its request.
    /// - Throws: The ``CourierError`` of ``Endpoint/urlRequest()``.
    @Sendable public static func defaultRequestMapping(for endpoint: Endpoint) async throws -> URLRequest {
        try endpoint.urlRequest()
    }

    /// Never stubs: every target uses the network.
    /// - Parameter target: The target.
    /// - Returns: ``StubBehavior/never``.
    @Sendable public static func neverStub(_ target: Target) -> StubBehavior { .never }

    /// Stubs every target with its sample response, at once.
    /// - Parameter target: The target.
    /// - Returns: ``StubBehavior/immediate``.
    @Sendable public static func immediatelyStub(_ target: Target) -> StubBehavior { .immediate }

    /// Stubs every target with its sample response after `seconds`.
    /// - Parameter seconds: The delay.
    /// - Returns: A stub closure.
    public static func delayedStub(_ seconds: TimeInterval) -> @Sendable (Target) -> StubBehavior {
        { _ in .delayed(seconds: seconds) }
    }
}
