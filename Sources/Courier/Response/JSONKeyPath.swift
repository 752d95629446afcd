/// A dot-separated path into parsed JSON: object keys, and array indexes written as numbers.
///
/// Moya follows key paths with Objective-C key-value coding, which Linux does not have; this
/// walks the parsed values directly and behaves the same on every platform.
struct JSONKeyPath {
    let components: [Substring]

    init(_ keyPath: String) {
        components = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    }

    /// The value at the path in `json`, or `nil` when a component is missing.
    func value(in json: Any) -> Any? {
        var current = json
        for component in components {
            if let object = current as? [String: Any], let next = object[String(component)] {
                current = next
            } else if let array = current as? [Any], let index = Int(component), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }
}
