import Foundation

/// The event that ends an event stream before its body does, such as the `data: [DONE]` of
/// OpenAI-style completion streams. The terminating event is not handed to the reader, the
/// transfer ends, and an ``EventSource`` does not reconnect. A stream that ends without it was cut
/// short (a server that closes a body without a length mid-answer looks like a normal end):
/// the loop ends with ``StreamingError/endedBeforeTerminator``, or an ``EventSource`` reconnects
/// when it may.
///
/// ```swift
/// for try await event in provider.events(.completion(prompt), until: .data("[DONE]")) {
///     print(event.data, terminator: "")
/// }
/// ```
public struct EventTerminator: Sendable {
    private let matches: @Sendable (ServerSentEvent) -> Bool

    /// A terminator that matches the events `matches` accepts.
    /// - Parameter matches: Whether an event ends the stream.
    public init(_ matches: @escaping @Sendable (ServerSentEvent) -> Bool) {
        self.matches = matches
    }

    /// The event whose data is exactly `data`, whatever its type.
    /// - Parameter data: The data, such as `[DONE]`.
    /// - Returns: The terminator.
    public static func data(_ data: String) -> EventTerminator {
        EventTerminator { $0.data == data }
    }

    /// The first event of type `type`, such as `done` or `end`.
    /// - Parameter type: The event type.
    /// - Returns: The terminator.
    public static func event(_ type: String) -> EventTerminator {
        EventTerminator { $0.type == type }
    }

    /// Whether `event` ends the stream.
    /// - Parameter event: An event.
    /// - Returns: `true` when it ends the stream.
    public func ends(at event: ServerSentEvent) -> Bool {
        matches(event)
    }
}
