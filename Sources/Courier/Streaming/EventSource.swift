import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server-Sent Events across reconnections: what `Provider.events(_:reconnection:)` returns.
/// Iterate it once; stopping the iteration ends the connection.
public struct EventSource<Target: TargetType>: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    let provider: Provider<Target>
    let target: Target
    let reconnection: EventReconnection
    let terminator: EventTerminator?

    /// Starts connecting when first asked for an event.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }

    /// Reads the events, connecting and reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: EventSource
        var current: ServerSentEvents.AsyncIterator?
        var lastEventID = ""
        var retry: TimeInterval?
        var attempts = 0
        var connected = false
        var finished = false

        init(source: EventSource) {
            self.source = source
        }

        /// The next event, or `nil` once the server answers 204, the terminator arrives, the
        /// stream ends without a reconnection, or the reconnections run out after a normal end.
        /// - Throws: The connection's ``CourierError`` when it cannot be made (a rejected head,
        ///   for example) or when reconnections run out after a failure.
        public mutating func next() async throws -> ServerSentEvent? {
            while !finished {
                if current == nil {
                    guard try await connect() else { return nil }
                }
                do {
                    if let event = try await current?.next() {
                        attempts = 0
                        lastEventID = event.lastEventID
                        return event
                    }
                    if current?.isTerminated == true {
                        current = nil
                        finished = true
                        return nil
                    }
                    try await reconnect(after: nil)
                } catch let error as CourierError {
                    if case .cancelled = error { throw error }
                    try await reconnect(after: error)
                }
            }
            return nil
        }

        /// Connects; `false` when the server answered 204 (no more events).
        private mutating func connect() async throws -> Bool {
            let headers = lastEventID.isEmpty ? [:] : ["Last-Event-ID": lastEventID]
            let streamed = try await source.provider.stream(
                source.target, handoff: StreamHandoff(extraHeaders: headers))
            guard streamed.statusCode != 204 else {
                finished = true
                return false
            }
            let type = streamed.headerFields["Content-Type"]?.lowercased() ?? ""
            guard type.hasPrefix("text/event-stream") else {
                finished = true
                throw CourierError.underlying(StreamingError.notAnEventStream(contentType: type), streamed.response)
            }
            let events = source.terminator.map { streamed.events(until: $0) } ?? streamed.events
            current = events.makeAsyncIterator(lastEventID: lastEventID)
            connected = true
            return true
        }

        /// Keeps the stream's retry and last event ID, then waits to reconnect, or ends.
        private mutating func reconnect(after error: CourierError?) async throws {
            if let parser = current?.parser {
                lastEventID = parser.lastEventID
                if let milliseconds = parser.retryMilliseconds { retry = Double(milliseconds) / 1000 }
            }
            current = nil
            let policy = source.reconnection
            guard error != nil || policy.reconnectsAfterEnd, attempts < policy.maximumAttempts else {
                finished = true
                if let error { throw error }
                return
            }
            attempts += 1
            do {
                try await Delay.sleep(seconds: retry ?? policy.delay)
            } catch {
                finished = true
                throw CourierError.cancelled
            }
        }
    }
}
