import Foundation

/// Whether a target is answered by its sample response instead of the network, and when.
///
/// A stub replaces only the transport: plugins, adapters, validation and retries run exactly as
/// they do for the network, so the same failure gives the same error.
/// ```swift
/// let provider = Provider<GitHub>(stubClosure: Provider.immediatelyStub)
/// ```
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum StubBehavior: Sendable, Hashable {
    /// Use the network.
    case never
    /// Answer with the sample response at once.
    case immediate
    /// Answer with the sample response after `seconds`. Cancelling the request ends the wait.
    case delayed(seconds: TimeInterval)
}
