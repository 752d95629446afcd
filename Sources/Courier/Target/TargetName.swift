/// A target's name for what is written about a request (a recording's entries, metrics labels,
/// span names): its type and case, never text that could carry its values.
///
/// `Auth.login` for `Auth.login(user: "ann", password: "…")`: the associated values, a struct
/// target's fields (headers, parameters, tokens) and a description the type gives itself are never
/// turned into text. A ``NamedTarget`` gives its case name itself (used when it is an identifier);
/// another enum's is read by reflection (a few microseconds); a target that is not an enum is named
/// by its type alone, and so is a case without values of an enum that describes itself (conform it
/// to ``NamedTarget`` to name it). A ``MultiTarget`` is named by the target it wraps.
public enum TargetName {
    /// The name of `target`: `Type.case`, or `Type`.
    /// - Parameter target: The target.
    /// - Returns: Its name.
    public static func of(_ target: any TargetType) -> String {
        let underlying = target.underlyingTarget
        let typeName = String(describing: type(of: underlying))
        return caseName(of: underlying).map { "\(typeName).\($0)" } ?? typeName
    }

    /// The case name of `target`'s underlying target, without its associated values: a
    /// ``NamedTarget``'s own when it is an identifier, else read by reflection; `nil` when the
    /// target is not an enum or its case cannot be named safely.
    /// - Parameter target: The target.
    /// - Returns: The case name, or `nil`.
    public static func caseName(of target: any TargetType) -> String? {
        let underlying = target.underlyingTarget
        // A name that is not an identifier may be a description (`"\(self)"`) with the values.
        if let named = underlying as? any NamedTarget, ValueName.isIdentifier(named.caseName) {
            return named.caseName
        }
        return ValueName.of(underlying).case
    }
}
