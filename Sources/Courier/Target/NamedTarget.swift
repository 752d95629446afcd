/// A target that names its case itself, for logs, metrics and spans, instead of having it read by
/// reflection.
///
/// Observability plugins label a request with its target's case name without the associated
/// values (`user` for `GitHub.user("octocat")`), and find it with `Mirror` when the target does not
/// give it: about 15,000 instructions on Linux (callgrind, Benchmarks/README), a few microseconds
/// per request, paid by each plugin. A target that conforms answers with a literal:
/// ```swift
/// extension GitHub: NamedTarget {
///     var caseName: String {
///         switch self {
///         case .user: "user"
///         case .zen: "zen"
///         }
///     }
/// }
/// ```
/// The name must not depend on associated values (it labels metrics, whose dimensions must stay
/// bounded), and should be the case's own name, as reflection would give it.
public protocol NamedTarget: TargetType {
    /// The name of the case, without its associated values.
    var caseName: String { get }
}
