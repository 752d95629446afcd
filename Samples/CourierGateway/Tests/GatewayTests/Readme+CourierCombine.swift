// Generated from Integrations/CourierCombine/README.md by ReadmeSnippetsTests: do not edit.
// Update: COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets
// swift-format-ignore-file

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif
import Courier
import CourierCombine

@Sendable func readmeCombine1() async throws {

    let subscription = provider.requestPublisher(.user("octocat"))
        .filterSuccessfulStatusCodes()
        .map(User.self)
        .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.login) })
    _ = subscription
}
