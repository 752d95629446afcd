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
    /// transport streams the body (`Transport.stream(_:)`); a stubbed target's sample arrives as
    /// its ``SampleStream`` says, or as one chunk.
    /// - Parameters:
    ///   - target: The target.
    ///   - progress: Receives a report each time the reader takes a chunk (bytes read so far,
    ///     against the `Content-Length` when there is one), then a last report carrying the head
    ///     when the body ends. It runs on the reader's task.
    /// - Returns: The accepted head and the body.
    /// - Throws: The request's ``CourierError``, as ``request(_:)`` would throw it.
    public func stream(
        _ target: Target, progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> StreamedResponse {
        try await stream(target, handoff: StreamHandoff(), progress: progress)
    }

    /// ``stream(_:progress:)`` through `handoff`, which may add header fields for this request.
    func stream(
        _ target: Target, handoff: StreamHandoff, progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> StreamedResponse {
        let response = try await perform(target, streaming: handoff).get()
        // A plugin's `process` may have replaced the result; its body is then the one to read.
        let body = handoff.take() ?? TransportBody(response.data)
        let plugins = self.plugins
        let tally = StreamTally(requestID: handoff.requestID, response: response, progress: progress) { summary in
            for plugin in plugins {
                plugin.didFinishStream(summary, target: target)
            }
        }
        return StreamedResponse(response: response, body: body, tally: tally)
    }

    /// The Server-Sent Events of `target`, reconnecting as an `EventSource` does: when the stream
    /// ends or breaks, the request is sent again (through the whole pipeline, so the interceptor
    /// can refresh a token first) after the server's `retry` or the policy's delay, with the
    /// `Last-Event-ID` of the last event; a 204 answer or a stopped iteration ends it.
    ///
    /// ```swift
    /// for try await event in provider.events(.notifications) where event.type == "message" {
    ///     print(event.data)
    /// }
    /// ```
    /// - Parameters:
    ///   - target: The target; its response must be `text/event-stream`.
    ///   - reconnection: When and how often to reconnect.
    ///   - terminator: The event that ends the stream for good (it is not handed over, and no
    ///     reconnection follows), such as `.data("[DONE]")`; none by default.
    /// - Returns: The events, across reconnections.
    public func events(
        _ target: Target, reconnection: EventReconnection = EventReconnection(),
        until terminator: EventTerminator? = nil
    ) -> EventSource<Target> {
        EventSource(provider: self, target: target, reconnection: reconnection, terminator: terminator)
    }
}
