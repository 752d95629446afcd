import Foundation

/// Why a stream could not be read as asked.
public enum StreamingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response to an event stream request is not `text/event-stream`.
    case notAnEventStream(contentType: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .notAnEventStream(let type):
            "The response is \(type.isEmpty ? "without a Content-Type" : type), not text/event-stream."
        }
    }
}
