// Generated from Integrations/CourierAsyncHTTPClient/README.md by ReadmeSnippetsTests: do not edit.
// Update: COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets
// swift-format-ignore-file

import CourierAsyncHTTPClient
import AsyncHTTPClient

@Sendable func readmeAsyncHTTPClient1() async throws {

    let provider = Provider<GitHub>(transport: AsyncHTTPClientTransport())
    _ = provider
}

@Sendable func readmeAsyncHTTPClient2() async throws {

    var configuration = HTTPClient.Configuration.singletonConfiguration
    configuration.tlsConfiguration = tls  // trust roots, client certificate
    configuration.proxy = .server(host: "proxy.internal", port: 3128)
    configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                            configuration: AsyncHTTPClientTransport.configuration(configuration))
    let provider = Provider<GitHub>(transport: AsyncHTTPClientTransport(client: client))
    // … later, once its providers are done (in an async function: at the top level of main.swift,
    // `try await client.shutdown()` can pick the overload that returns a future and does not wait)
    try await client.shutdown()
    _ = client
    _ = provider
}
