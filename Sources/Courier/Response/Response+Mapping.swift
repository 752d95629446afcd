import Foundation

extension Response {
    /// The body parsed as JSON (top-level fragments allowed).
    /// - Parameter failsOnEmptyData: Whether an empty body is an error; when `false` it gives `NSNull()`.
    /// - Returns: The parsed JSON value.
    /// - Throws: ``CourierError/jsonMapping(_:)`` when the body is not JSON.
    public func mapJSON(failsOnEmptyData: Bool = true) throws(CourierError) -> Any {
        if data.isEmpty && !failsOnEmptyData { return NSNull() }
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw .jsonMapping(self)
        }
    }

    /// The body as a UTF-8 string, or the string at `keyPath` in the JSON body.
    ///
    /// A key path is a dot-separated list of object keys and array indexes, such as
    /// `"data.items.0.name"`; it works the same on every platform.
    /// - Parameter keyPath: The key path of a string in the JSON body, or `nil` for the whole body.
    /// - Returns: The string.
    /// - Throws: ``CourierError/stringMapping(_:)`` when the body (or the value) is not a string,
    ///   ``CourierError/jsonMapping(_:)`` when a key path is given and the body is not JSON,
    ///   ``CourierError/keyPathNotFound(_:_:)`` when the key path is missing.
    public func mapString(atKeyPath keyPath: String? = nil) throws(CourierError) -> String {
        guard let keyPath else {
            guard let string = String(data: data, encoding: .utf8) else { throw .stringMapping(self) }
            return string
        }
        guard let string = try value(atKeyPath: keyPath) as? String else { throw .stringMapping(self) }
        return string
    }

    /// The body decoded as `type`, or the value at `keyPath` in the JSON body decoded as `type`.
    ///
    /// ```swift
    /// let user = try response.map(User.self)
    /// let names = try response.map([String].self, atKeyPath: "data.names")
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - keyPath: A dot-separated key path into the JSON body (object keys and array indexes),
    ///     or `nil` for the whole body.
    ///   - decoder: The decoder to use.
    ///   - failsOnEmptyData: Whether an empty body is an error; when `false`, an empty body is
    ///     decoded as `{}`, then `[]`, then `null`, whichever `type` accepts.
    /// - Returns: The decoded value.
    /// - Throws: ``CourierError/objectMapping(_:_:)`` when decoding fails,
    ///   ``CourierError/jsonMapping(_:)`` or ``CourierError/keyPathNotFound(_:_:)`` for a key path
    ///   that cannot be followed.
    public func map<D: Decodable>(
        _ type: D.Type,
        atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws(CourierError) -> D {
        if data.isEmpty && !failsOnEmptyData {
            return try decodeEmpty(type, using: decoder)
        }
        var payload = data
        if let keyPath {
            let value = try value(atKeyPath: keyPath)
            do {
                payload = try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)
            } catch {
                throw .jsonMapping(self)
            }
        }
        do {
            return try decoder.decode(type, from: payload)
        } catch {
            throw .objectMapping(error, self)
        }
    }

    private func decodeEmpty<D: Decodable>(_ type: D.Type, using decoder: JSONDecoder) throws(CourierError) -> D {
        var firstError: (any Error)?
        for candidate in ["{}", "[]", "null"] {
            do {
                return try decoder.decode(type, from: Data(candidate.utf8))
            } catch {
                firstError = firstError ?? error
            }
        }
        throw .objectMapping(firstError!, self)
    }

    private func value(atKeyPath keyPath: String) throws(CourierError) -> Any {
        let json = try mapJSON()
        guard let value = JSONKeyPath(keyPath).value(in: json) else {
            throw .keyPathNotFound(keyPath, self)
        }
        return value
    }
}
