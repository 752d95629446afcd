import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server-Sent Events across reconnections: what `Provider.events(_:lastEventID:reconnection:limits:until:)`
/// returns. Iterate it once; stopping the iteration ends the connection.
///
/// Every event is handed over once, in order: a reconnection sends the ID of the last event
/// dispatched (never the `id` of an event cut off before its blank line) as `Last-Event-ID`, so
/// a server that resumes after it sends the rest. ``EventReconnection`` says when it reconnects
/// and when it gives up.
public struct EventSource<Target: TargetType>: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    let provider: Provider<Target>
    let target: Target
    let lastEventID: String
    let reconnection: EventReconnection
    let limits: StreamingLimits
    let terminator: EventTerminator?

    /// Starts connecting when first asked for an event.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self)
    }

    /// Reads the events, connecting and reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: EventSource
        var current: ServerSentEvents.AsyncIterator?
        /// The ID of the last event handed over (or of a block of fields without data that a
        /// blank line ended): persist it to resume a later source after it.
        public private(set) var lastEventID: String
        /// The server's last `retry`, in seconds.
        var reconnectionTime: TimeInterval?
        /// Reconnections in a row without an event.
        var failures = 0
        /// Connections tried so far, failed ones included.
        var connections = 0
        /// Whether a connection's head was ever accepted.
        var connected = false
        var finished = false

        init(source: EventSource) {
            self.source = source
            lastEventID = source.lastEventID
        }

        /// The next event, or `nil` once the source ends normally (see ``EventReconnection``).
        /// - Throws: The ``CourierError`` that ends the source: one that no reconnection can
        ///   mend, or ``StreamingError/Code/reconnectionsExhausted`` with the last failure.
        public mutating func next() async throws -> ServerSentEvent? {
            while !finished {
                let failure: CourierError?
                do {
                    if current == nil {
                        guard try await connect() else { return nil }
                    }
                    if let event = try await current?.next() {
                        failures = 0
                        lastEventID = event.lastEventID
                        return event
                    }
                    if current?.isTerminated == true {
                        (current, finished) = (nil, true)
                        return nil
                    }
                    failure = nil
                } catch {
                    failure = error as? CourierError ?? .underlying(error, nil)
                }
                try await reconnect(after: failure)
            }
            return nil
        }

        /// Connects; `false` when the server answered 204 (no more events).
        private mutating func connect() async throws(CourierError) -> Bool {
            connections += 1
            let handoff = StreamHandoff(
                extraHeaders: lastEventID.isEmpty ? [:] : ["Last-Event-ID": lastEventID],
                defaultHeaders: ["Accept": "text/event-stream", "Cache-Control": "no-cache"], limits: source.limits,
                connection: connections)
            let streamed = try await source.provider.stream(source.target, handoff: handoff)
            guard streamed.statusCode != 204 else {
                finished = true
                // Read to its (empty) end, so that the plugins see this connection completed.
                var end = streamed.body.makeAsyncIterator()
                _ = try? await end.next()
                return false
            }
            // Only a 200 is an event stream, whatever the target's validation let through.
            guard streamed.statusCode == 200 else { throw .statusCode(streamed.response) }
            let type = streamed.headerFields["Content-Type"] ?? ""
            let essence = type.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
            guard essence.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream" else {
                throw .underlying(StreamingError.notAnEventStream(contentType: type), streamed.response)
            }
            let events = source.terminator.map { streamed.events(until: $0) } ?? streamed.events
            current = events.makeAsyncIterator(lastEventID: lastEventID)
            connected = true
            return true
        }

        /// Keeps the stream's retry and last event ID, then waits to reconnect, or ends the source.
        private mutating func reconnect(after failure: CourierError?) async throws(CourierError) {
            if let parser = current?.parser {
                lastEventID = parser.lastEventID
                if let milliseconds = parser.retryMilliseconds { reconnectionTime = Double(milliseconds) / 1000 }
            }
            current = nil
            let retryAfter: TimeInterval?
            do throws(EventSourceEnd) {
                try EventSourceEnd.checkMethod(source.target.method, failure, policy: source.reconnection)
                retryAfter = try EventSourceEnd.check(
                    failure, policy: source.reconnection, connected: connected, now: source.provider.clock.date())
                try EventSourceEnd.checkBudget(failures, failure, policy: source.reconnection)
            } catch {
                finished = true
                if let error = error.error { throw error }
                return
            }
            failures += 1
            let wait = source.reconnection.delay(
                beforeAttempt: failures, reconnectionTime: reconnectionTime, retryAfter: retryAfter,
                random: Double.random(in: 0...1))
            do {
                try await Delay.sleep(seconds: wait)
            } catch {
                finished = true
                throw .cancelled
            }
        }
    }
}
