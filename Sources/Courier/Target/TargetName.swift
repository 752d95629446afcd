/// A target's name for what Courier writes (a recording's entries): its type and case, never
/// text that could carry its values.
///
/// `Auth.login` for `Auth.login(user: "ann", password: "…")`: the associated values, a struct
/// target's fields (headers, parameters, tokens) and a description the type gives itself are never
/// turned into text. A ``NamedTarget`` gives its case name itself; another enum's is read by
/// reflection; a target that is not an enum (or that describes or reflects itself) is named by its
/// type alone. A ``MultiTarget`` is named by the target it wraps.
package enum TargetName {
    /// The name of `target`: `Type.case`, or `Type`.
    package static func of(_ target: any TargetType) -> String {
        let underlying = target.underlyingTarget
        let typeName = String(describing: type(of: underlying))
        if let named = underlying as? any NamedTarget { return "\(typeName).\(named.caseName)" }
        // A type that describes or reflects itself may put its values in that text.
        if underlying is any CustomStringConvertible || underlying is any CustomDebugStringConvertible
            || underlying is any TextOutputStreamable || underlying is any CustomReflectable
        {
            return typeName
        }
        let mirror = Mirror(reflecting: underlying)
        guard mirror.displayStyle == .enum else { return typeName }
        // A case with associated values reflects as one child labelled with the case's name; one
        // without is described by its name alone.
        return "\(typeName).\(mirror.children.first?.label ?? String(describing: underlying))"
    }
}
