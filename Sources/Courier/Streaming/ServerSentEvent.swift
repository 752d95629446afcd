import Foundation

/// One Server-Sent Event, as the WHATWG HTML standard's "event stream" interpretation dispatches
/// it.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event type: the `event` field, or `message` when it had none.
    public var type: String
    /// The data: the `data` fields, joined by line feeds.
    public var data: String
    /// The last event ID when the event was dispatched: set by an `id` field of this event or an
    /// earlier one, and sent back as `Last-Event-ID` on reconnection.
    public var lastEventID: String

    /// Creates an event.
    /// - Parameters:
    ///   - type: The event type; `message` by default.
    ///   - data: The data.
    ///   - lastEventID: The last event ID; empty by default.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }

    /// The type and the size of the data, for example `message (42 bytes)`; never the data
    /// itself, which may hold secrets.
    public var description: String {
        "\(type) (\(data.utf8.count) bytes)"
    }

    /// The data decoded as JSON.
    /// ```swift
    /// for try await event in provider.events(.chat(prompt), until: .data("[DONE]")) {
    ///     print(try event.decoded(as: Delta.self).text, terminator: "")
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; a new `JSONDecoder` by default.
    /// - Returns: The decoded value.
    /// - Throws: ``CourierError/objectMapping(_:_:)`` when the data is not that JSON; its response
    ///   holds the event's data as its body (an event has no head of its own).
    public func decoded<Value: Decodable>(as type: Value.Type, using decoder: JSONDecoder = JSONDecoder())
        throws(CourierError)
        -> Value
    {
        do {
            return try decoder.decode(Value.self, from: Data(data.utf8))
        } catch {
            throw CourierError.objectMapping(error, Response(statusCode: 200, data: Data(data.utf8)))
        }
    }
}
