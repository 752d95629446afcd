import Foundation

/// A request body URLSession reads as a stream (`uploadTask(withStreamedRequest:)`): how to make
/// the stream, each time URLSession asks, and its size when known.
struct StreamedBody: Sendable {
    /// The body's size, for progress (URLSession does not know it), or `nil`.
    let size: Int64?
    /// Makes a stream of the body from its start.
    let make: @Sendable () throws -> InputStream

    init(size: Int64?, make: @escaping @Sendable () throws -> InputStream) {
        self.size = size
        self.make = make
    }
}
