import Courier
import HTTPTypes

extension HeaderFields {
    /// Courier's header fields from swift-http-types' fields, in their order.
    init(_ fields: HTTPFields) {
        self.init(fields.map { HeaderFields.Field(name: $0.name.canonicalName, value: $0.value) })
    }

    /// swift-http-types' fields, in this order; a field whose name HTTP does not allow is left out
    /// (an engine would refuse to send or parse it).
    var httpFields: HTTPFields {
        var fields = HTTPFields()
        for field in self {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return fields
    }
}
