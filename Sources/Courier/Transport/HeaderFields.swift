import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP header fields as they are on the wire: in order, names compared without regard to case,
/// a name as many times as it was sent.
///
/// Foundation's header dictionaries lose the order and fold repeated fields into one; an engine
/// that receives them apart (a `Set-Cookie` per cookie, say) keeps them here. The shape is that
/// of swift-http-types' `HTTPFields`, so converting between the two is a loop over the fields.
/// ```swift
/// let cookies = response.headerFields.values(for: "set-cookie")
/// ```
/// The description names the fields but never shows their values, which may be secrets.
public struct HeaderFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name, as it was sent.
        public let name: String
        /// The value.
        public let value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates header fields, in the given order.
    /// - Parameter fields: The fields.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates header fields from a literal, in its order.
    /// - Parameter elements: Names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The fields of a Foundation header dictionary, sorted by name (a dictionary has no order).
    /// - Parameter dictionary: Names and values.
    public init(_ dictionary: [String: String]) {
        // Each name lowercased once, not twice per comparison.
        fields = dictionary.map { (key: $0.key.lowercased(), field: Field(name: $0.key, value: $0.value)) }
            .sorted { $0.key < $1.key }.map(\.field)
    }

    /// The header fields of a Foundation response.
    /// - Parameter response: The response.
    public init(_ response: HTTPURLResponse) {
        var dictionary: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { dictionary[name] = value }
        }
        self.init(dictionary)
    }

    /// The first index.
    public var startIndex: Int { fields.startIndex }
    /// The index after the last field.
    public var endIndex: Int { fields.endIndex }

    /// The field at `position`.
    /// - Parameter position: An index of a field.
    public subscript(position: Int) -> Field { fields[position] }

    /// The values of every field named `name` (in any case), joined by `", "` as RFC 9110
    /// combines repeated fields, or `nil` when there is none. Use ``values(for:)`` for
    /// `Set-Cookie`, whose values cannot be joined.
    /// - Parameter name: A field name.
    public subscript(name: String) -> String? {
        let values = values(for: name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The values of every field named `name` (its ASCII letters in any case, as HTTP compares
    /// field names), in order.
    /// - Parameter name: A field name.
    /// - Returns: The values; empty when there is none.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where field.name.equalsIgnoringASCIICase(name) {
            values.append(field.value)
        }
        return values
    }

    /// Adds a field after the others, keeping any field of the same name.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (its ASCII letters in any case).
    /// - Parameter name: A field name.
    public mutating func removeAll(named name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// The fields as a Foundation header dictionary: one entry per name (in the case it first
    /// had), repeated values joined by `", "`.
    public var dictionary: [String: String] {
        var combined: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            let name = spelling[key] ?? field.name
            spelling[key] = name
            combined[name] = combined[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return combined
    }

    /// The number of fields and their names, without their values.
    public var description: String {
        "HeaderFields(\(fields.map(\.name).joined(separator: ", ")))"
    }

    /// The values of a repeated field as one field line holds them (RFC 9110 §5.3): joined with
    /// ", " in order.
    static func joined(_ values: [String]) -> String {
        values.joined(separator: ", ")
    }
}
