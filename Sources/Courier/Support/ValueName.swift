/// The name of a value that cannot carry what the value holds: its type, and for an enum its
/// case, read by reflection without turning associated values or fields into text.
enum ValueName {
    /// The type's name and, for an enum, the case's name (`nil` for a type that is not an enum,
    /// or whose case cannot be named without its own text).
    static func of(_ value: Any) -> (type: String, case: String?) {
        let valueType = type(of: value)
        let typeName = String(describing: valueType)
        // A type that reflects itself may put anything in its children's labels.
        guard !(valueType is any CustomReflectable.Type) else { return (typeName, nil) }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return (typeName, nil) }
        // A case with associated values reflects as one child labelled with the case's name.
        if let label = mirror.children.first?.label { return (typeName, label) }
        // One without is described by its name alone, unless the type describes itself.
        if describesItself(valueType) { return (typeName, nil) }
        return (typeName, String(describing: value))
    }

    /// Whether values of `type` give their own text. Asked of the type, not the value: an error
    /// value would pass as `CustomStringConvertible` through its bridge to `NSError`.
    static func describesItself(_ type: Any.Type) -> Bool {
        type is any CustomStringConvertible.Type || type is any CustomDebugStringConvertible.Type
            || type is any TextOutputStreamable.Type
    }

    /// `Type.case`, or `Type`.
    static func text(of value: Any) -> String {
        let name = of(value)
        return name.case.map { "\(name.type).\($0)" } ?? name.type
    }

    /// Whether `name` can stand for a case name: a Swift identifier's letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
