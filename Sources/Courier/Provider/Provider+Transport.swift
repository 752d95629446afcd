import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the provider does around a transport that does not do it itself (see
/// ``TransportCapabilities``), so that every transport behaves the same to the pipeline.
extension Provider {
    /// Sends `request`, enforcing its timeout when the transport does not.
    @inline(__always)
    static func send(_ request: TransportRequest, on transport: any Transport) async throws -> TransportResponse {
        try await transport.sendWithinTimeout(request)
    }

    /// Streams `request`: an accepted head hands its body to `handoff` and returns the head with
    /// an empty body; a rejected head returns with the start of its body (up to the limits'
    /// ``StreamingLimits/rejectedBodyPrefix``, for the error), and the rest of the transfer is
    /// dropped. The head and every chunk read here wait at most the attempt's idle limit.
    static func stream(
        _ request: TransportRequest, on transport: any Transport, into handoff: StreamHandoff,
        _ attempt: StreamAttempt
    ) async throws -> TransportResponse {
        let timeouts = attempt.timeouts
        let streamed = try await timeouts.bound { try await transport.stream(request) }
        let head = (streamed.statusCode, streamed.source, streamed.receivedFields)
        guard attempt.validationType.accepts(streamed.statusCode) else {
            let start = try await streamed.body.prefix(upTo: handoff.limits.rejectedBodyPrefix, within: timeouts)
            return TransportResponse(statusCode: head.0, source: head.1, headerFields: head.2, data: start)
        }
        handoff.store(streamed.body, timeouts: timeouts)
        return TransportResponse(statusCode: head.0, source: head.1, headerFields: head.2, data: Data())
    }

    /// For a download whose transport returned the body in memory: the body written to a
    /// temporary file, to be placed like any download. `nil` when there is nothing to bridge.
    /// - Throws: ``TransferError/cannotWriteFile(_:)``.
    static func bridgedDownload(
        _ received: TransportResponse, setup: AttemptSetup, accepted: Bool
    ) throws(TransferError) -> URL? {
        guard received.fileURL == nil, setup.destination != nil, accepted else { return nil }
        let file = try DownloadFile()
        guard file.write(received.data), file.flush() else {
            file.delete()
            throw .cannotWriteFile(file.url)
        }
        file.close()
        return file.url
    }
}

/// What the stream step of an attempt needs besides its request: how to validate the head, and
/// how long each wait may take.
struct StreamAttempt: Sendable {
    let validationType: ValidationType
    let timeouts: StreamTimeouts
}

extension Transport {
    /// Sends `request`, enforcing ``TransportRequest/timeout`` when this transport does not
    /// declare ``TransportCapabilities/timeouts``: the provider's rule, which CourierTesting's
    /// conformance suite applies too.
    @inline(__always)
    package func sendWithinTimeout(_ request: TransportRequest) async throws -> TransportResponse {
        guard let timeout = request.timeout, !capabilities.contains(.timeouts) else { return try await send(request) }
        return try await TimeLimit.run(
            seconds: timeout, clock: request.timeouts?.limitClock,
            discard: { late in late.fileURL.map { try? FileManager.default.removeItem(at: $0) } },
            { try await send(request) })
    }
}

extension TransportCapabilities {
    /// The error refusing `request` when it asks for options `transport` does not honour.
    static func refusal(
        of request: URLRequest, repeating repeated: HeaderFields, by transport: any Transport
    ) -> RequestValidationError? {
        let honoured = transport.capabilities
        guard !honoured.isSuperset(of: .requestOptions) else { return nil }
        var required = required(by: request)
        if !repeated.isEmpty { required.insert(.repeatedHeaderFields) }
        let missing = required.subtracting(honoured)
        guard !missing.isEmpty else { return nil }
        return .unsupportedOptions(missing, transport: String(describing: type(of: transport)))
    }
}
