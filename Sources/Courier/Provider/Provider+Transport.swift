import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How an attempt reaches its chain of stages and the engine, so that every engine behaves the
/// same to the pipeline.
extension Provider {
    /// Sends `request` through `chain`. An engine that gave a body as a stream when asked for it
    /// whole has it read here.
    @inline(__always)
    static func send(
        _ request: TransportRequest, through chain: StageChain.Next, _ context: ExchangeContext
    ) async throws -> TransportResponse {
        let received = try await chain(request, context)
        guard let stream = received.stream else { return received }
        return received.withData(try await stream.collect(upTo: .max))
    }

    /// Sends `request` through `chain` as a stream, keeping the first bytes of the answer's body
    /// (`answer`); the rest is left unread and the transfer ended. The whole exchange, the body's
    /// start included, takes at most the attempt's limit (`timeouts`), as a whole request does.
    /// A failure after the head returns the head with what came of the body, recorded as cut: the
    /// status is the server's answer (a 2xx: it took the write). An engine that cannot make the
    /// server wait stops a megabyte past the limit.
    static func send(
        _ request: TransportRequest, through chain: StageChain.Next, _ context: ExchangeContext,
        keeping answer: AnswerLimit, _ timeouts: Timeouts
    ) async throws -> TransportResponse {
        var streamed = request
        streamed.delivery = .stream
        let limit = answer.bytes
        streamed.streamingLimits = StreamingLimits(
            memoryBufferSize: limit + (1 << 20), maximumBacklog: limit + (1 << 20))
        let read = Locked<(head: TransportResponse?, start: Data)>((nil, Data()))
        do {
            let whole = try await StreamTimeouts(timeouts).bound { [streamed] in
                let received = try await chain(streamed, context)
                guard let stream = received.stream else { return received.withData(received.data.prefix(limit)) }
                read.withLock { $0.head = received }
                for try await chunk in stream {
                    let full = read.withLock { read -> Bool in
                        read.start.append(chunk.prefix(limit - read.start.count))
                        return read.start.count >= limit
                    }
                    if full { break }
                }
                return received.withData(read.value.start)
            }
            answer.record(cut: whole.data.count >= limit)
            return whole
        } catch {
            let (head, start) = read.value
            guard let head else { throw error }
            answer.record(cut: true)
            return head.withData(start)
        }
    }

    /// Streams `request`: an accepted head hands its body to `handoff` and returns the head with
    /// an empty body; a rejected head returns with the start of its body (up to the limits'
    /// ``StreamingLimits/rejectedBodyPrefix``, for the error), and the rest of the transfer is
    /// dropped. The head and every chunk read here wait at most the attempt's idle limit.
    static func stream(
        _ request: TransportRequest, through chain: StageChain.Next, _ context: ExchangeContext,
        into handoff: StreamHandoff, _ attempt: StreamAttempt
    ) async throws -> TransportResponse {
        let timeouts = attempt.timeouts
        let streamed = try await timeouts.bound { try await chain(request, context) }
        let head = (streamed.statusCode, streamed.source, streamed.receivedFields)
        // An engine that cannot stream gave the body whole: it goes on as one chunk.
        let body = streamed.stream ?? TransportBody(streamed.data)
        guard attempt.validationType.accepts(streamed.statusCode) else {
            let start = try await body.prefix(upTo: handoff.limits.rejectedBodyPrefix, within: timeouts)
            var rejected = TransportResponse(statusCode: head.0, source: head.1, headerFields: head.2, data: start)
            rejected.keepRecords(of: streamed)
            return rejected
        }
        handoff.store(body, timeouts: timeouts)
        var accepted = TransportResponse(statusCode: head.0, source: head.1, headerFields: head.2, data: Data())
        accepted.keepRecords(of: streamed)
        return accepted
    }

}

/// What the stream step of an attempt needs besides its request: how to validate the head, and
/// how long each wait may take.
struct StreamAttempt: Sendable {
    let validationType: ValidationType
    let timeouts: StreamTimeouts
}
