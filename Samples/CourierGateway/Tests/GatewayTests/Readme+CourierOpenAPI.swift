// Generated from Integrations/CourierOpenAPI/README.md by ReadmeSnippetsTests: do not edit.
// Update: COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets
// swift-format-ignore-file

import CourierOpenAPI

@Sendable func readmeOpenAPI1() async throws {
    let provider = Provider<OpenAPIOperation>()
    // Package.swift: .package(path: "…/Integrations/CourierOpenAPI"), product "CourierOpenAPI"

    let client = Client(serverURL: serverURL, transport: CourierTransport(provider: provider))
    _ = client
}
