/// The messages of a ``WebSocket``, read from the network as they are asked for (see
/// ``WebSocket/messages``).
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = WebSocketMessage

    let socket: WebSocket

    /// An iterator over the socket's messages.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let socket: WebSocket

        /// The next message, or `nil` once the socket closed.
        /// - Returns: The message.
        /// - Throws: A ``WebSocketError``, or the engine's error when the connection was lost.
        public mutating func next() async throws -> WebSocketMessage? {
            try await socket.next()
        }
    }

    /// Makes an iterator.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(socket: socket)
    }
}
