import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Provider {
    /// Sends the request of `target` and returns its response as soon as its head is accepted,
    /// with a body that arrives as the caller reads it.
    ///
    /// ```swift
    /// let streamed = try await provider.stream(.logs(follow: true))
    /// for try await line in streamed.lines { print(line) }
    /// ```
    /// The request takes the same pipeline as any other (see <doc:CallOrder>): `prepare`,
    /// `willSend`, `adapt`, the transport, then validation of the head; a rejected head is
    /// retried as any failed attempt, so retries happen only before the first byte reaches the
    /// caller. `didReceive` and `process` run once, when the head is accepted (with the head and
    /// an empty body) or when the request fails; `didFinishStream` runs when the body ends. The
    /// transport streams the body (``TransportRequest/Delivery/stream``); a stubbed target's sample arrives as
    /// its ``SampleStream`` says, or as one chunk.
    ///
    /// The target's `timeoutInterval` bounds each wait, for the head and then for every next
    /// chunk, never the whole body: a healthy stream may go on for longer. Its
    /// `totalTimeoutInterval`, when set, bounds the whole request, body included. A stream past
    /// one of its `limits` ends with a ``StreamingError``.
    /// - Parameters:
    ///   - target: The target.
    ///   - limits: The stream's bounds; the provider's ``streamingLimits`` by default.
    ///   - progress: Receives a report each time the reader takes a chunk (bytes read so far,
    ///     against the `Content-Length` when there is one), then a last report carrying the head
    ///     when the body ends. It runs on the reader's task.
    /// - Returns: The accepted head and the body.
    /// - Throws: The request's ``CourierError``, as ``request(_:)`` would throw it.
    public func stream(
        _ target: Target, limits: StreamingLimits? = nil, progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> StreamedResponse {
        try await stream(target, handoff: StreamHandoff(limits: limits ?? streamingLimits), progress: progress)
    }

    /// ``stream(_:limits:progress:)`` through `handoff`, which may add header fields for this
    /// request.
    func stream(
        _ target: Target, handoff: StreamHandoff, progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> StreamedResponse {
        let response = try await perform(target, streaming: handoff).get()
        // A plugin's `process` may have replaced the result; its body is then the one to read.
        let accepted = handoff.take()
        let plugins = self.plugins
        let tally = StreamTally(
            requestID: handoff.requestID, connection: handoff.connection, response: response, progress: progress
        ) { summary in
            for plugin in plugins {
                plugin.didFinishStream(summary, target: target)
            }
        }
        return StreamedResponse(
            response: response, body: accepted?.body ?? TransportBody(response.data), tally: tally,
            limits: handoff.limits, timeouts: accepted?.timeouts)
    }

    /// The Server-Sent Events of `target`, reconnecting as an `EventSource` does, with a policy:
    /// when the stream ends or breaks, or a (re)connection fails, the request is sent again
    /// (through the whole pipeline, so the interceptor can refresh a token first) after the
    /// reconnection delay, with the `Last-Event-ID` of the last event dispatched; a 204 answer, the
    /// terminator, a stopped iteration, or attempts running out ends it (see
    /// ``EventReconnection`` for the whole table).
    ///
    /// ```swift
    /// for try await event in provider.events(.notifications) where event.type == "message" {
    ///     print(event.data)
    /// }
    /// ```
    /// Each connection asks for `Accept: text/event-stream` and `Cache-Control: no-cache`, unless
    /// the target sets those fields itself.
    /// - Parameters:
    ///   - target: The target; its response must be `text/event-stream`.
    ///   - lastEventID: The last event ID to resume after, sent as `Last-Event-ID` on the first
    ///     connection (a source persisted from an earlier run); none by default.
    ///   - reconnection: When and how often to reconnect.
    ///   - limits: The streams' bounds; the provider's ``streamingLimits`` by default.
    ///   - terminator: The event that ends the stream for good (it is not handed over, and no
    ///     reconnection follows), such as `.data("[DONE]")`; none by default.
    /// - Returns: The events, across reconnections.
    public func events(
        _ target: Target, lastEventID: String = "", reconnection: EventReconnection = EventReconnection(),
        limits: StreamingLimits? = nil, until terminator: EventTerminator? = nil
    ) -> EventSource<Target> {
        EventSource(
            provider: self, target: target, lastEventID: lastEventID, reconnection: reconnection,
            limits: limits ?? streamingLimits, terminator: terminator)
    }
}
