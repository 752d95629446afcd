import Foundation
import OpenAPIRuntime

/// Reads an OpenAPI body chunk by chunk for a pulling ``Courier/TransportBody``.
///
/// `@unchecked Sendable`: the iterator is mutable state without a lock, which is safe because a
/// pulling `TransportBody` asks for the next chunk from one reader at a time and never while a
/// previous call is still running (its documented contract), so no two calls overlap.
final class OpenAPIBodyReader: @unchecked Sendable {
    private var iterator: HTTPBody.AsyncIterator

    /// A reader of `body`.
    init(_ body: HTTPBody) {
        iterator = body.makeAsyncIterator()
    }

    /// The next chunk, or `nil` at the end.
    func next() async throws -> Data? {
        try await iterator.next().map { Data($0) }
    }
}
