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
}
