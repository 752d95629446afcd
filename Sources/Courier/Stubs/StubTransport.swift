import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport of a stubbed request: answers with the endpoint's sample response, at once or
/// after a delay, and is otherwise just another ``Transport``. Package-visible so that the
/// tests hold it to the transport contract (the conformance cases that apply without a server).
package struct StubTransport: Transport {
    /// The delay of a `.delayed` behaviour, 0 otherwise: three words with the closure, which an
    /// existential holds without a box (a `StubBehavior` made it four, an allocation per request).
    let delay: TimeInterval
    let sampleResponse: @Sendable () -> EndpointSampleResponse

    /// Creates the stub transport of one request.
    package init(behavior: StubBehavior, sampleResponse: @escaping @Sendable () -> EndpointSampleResponse) {
        if case .delayed(let seconds) = behavior { delay = seconds } else { delay = 0 }
        self.sampleResponse = sampleResponse
    }

    /// Everything: a stub honours the timeout, and request options and trust policies have no
    /// network to act on.
    package var capabilities: TransportCapabilities { Self.declared }

    /// The capabilities, made once (an array literal per call costs an allocation).
    private static let declared: TransportCapabilities = [.all, .trustPolicy, .webSocket]

    /// Takes the sample response when the attempt starts, as a network transport would start
    /// sending, then delivers it after the stub's delay; a sample stream's chunks are waited
    /// for and joined.
    /// A streamed request gets the head after the stub's delay, then a sample stream's chunks as
    /// the reader asks for them, each after its own delay; any other sample is one chunk.
    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        var clock = StubClock(timeout: request.timeout)
        if let socket = request.webSocket {
            try await clock.wait(stubDelay())
            return Self.handshake(socket, request)
        }
        let sample = sampleResponse()
        try await clock.wait(stubDelay())
        guard request.delivery == .stream else { return try await answer(sample, to: request, clock: &clock) }
        return try await streamed(sample, to: request, clock: &clock)
    }

    /// The whole response of `sample`.
    @inline(__always)
    private func answer(
        _ sample: EndpointSampleResponse, to request: TransportRequest, clock: inout StubClock
    ) async throws -> TransportResponse {
        switch sample {
        case .networkResponse(let statusCode, let data):
            let file = try deliver(data, for: request)
            guard file != nil else {
                // No HTTPURLResponse, as in Moya: building one costs more than the rest of a
                // stubbed request. Use `.response(_:_:)` for a stub with headers.
                return TransportResponse(statusCode: statusCode, data: data)
            }
            // A download's destination gets a response (the request's URL, the status), as from
            // the network, and the response keeps the sample data, as a Moya stub does.
            return TransportResponse(
                statusCode: statusCode, headerFields: [:], url: Self.url(of: request), data: data, fileURL: file)
        case .response(let response, let data):
            let file = try deliver(data, for: request)
            return TransportResponse(response: response, data: data, fileURL: file)
        case .streamedResponse(let statusCode, let stream):
            for chunk in stream.chunks { try await clock.wait(chunk.delay) }
            let data = stream.body
            let file = try deliver(data, for: request)
            return TransportResponse(
                statusCode: statusCode, headerFields: HeaderFields(stream.headerFields), url: Self.url(of: request),
                data: data, fileURL: file)
        case .networkError(let error):
            throw error
        }
    }

    /// The streamed response of `sample`: a sample stream's chunks as the reader asks for them.
    private func streamed(
        _ sample: EndpointSampleResponse, to request: TransportRequest, clock: inout StubClock
    ) async throws -> TransportResponse {
        guard case .streamedResponse(let statusCode, let stream) = sample else {
            let whole = try await answer(sample, to: request, clock: &clock)
            return TransportResponse(
                statusCode: whole.statusCode, source: whole.source, headerFields: whole.receivedFields,
                stream: TransportBody(whole.data))
        }
        let next = Locked(0)
        let chunks = stream.chunks
        let body = TransportBody(
            pulling: {
                let taken = next.withLock { index -> Int? in
                    guard index < chunks.count else { return nil }
                    defer { index += 1 }
                    return index
                }
                guard let index = taken else { return nil }
                try await Delay.sleep(seconds: chunks[index].delay)
                return chunks[index].data
            }, onTermination: {})
        return TransportResponse(
            statusCode: statusCode, headerFields: HeaderFields(stream.headerFields), url: Self.url(of: request),
            stream: body)
    }

    /// The stub's delay before the head; a negative one is refused.
    private func stubDelay() throws -> TimeInterval {
        guard delay >= 0 else {
            throw RequestValidationError.invalidTimeInterval(name: "The stub's delay", value: delay)
        }
        return delay
    }

    private static func url(of request: TransportRequest) -> URL {
        request.urlRequest.url ?? URL(fileURLWithPath: "/")
    }

    /// Reports the request body as sent and the response body as received, and writes the latter
    /// to a file for a download.
    private func deliver(_ data: Data, for request: TransportRequest) throws -> URL? {
        if let progress = request.progress {
            let sent = request.body.size(inline: request.urlRequest)
            progress(TransferProgress(direction: .upload, completedBytes: sent, expectedBytes: sent))
            progress(
                TransferProgress(
                    direction: .download, completedBytes: Int64(data.count), expectedBytes: Int64(data.count)))
        }
        guard request.delivery == .file else { return nil }
        let file = try DownloadFile()
        guard file.write(data), file.flush() else {
            file.delete()
            throw TransferError.cannotWriteFile(file.url)
        }
        file.close()
        return file.url
    }
}

/// A stub's waits against the request's timeout: a wait that would end after the timeout ends at
/// the timeout with a `timedOut` failure, as the network would.
private struct StubClock {
    var remaining: TimeInterval?

    init(timeout: TimeInterval?) {
        remaining = timeout
    }

    @inline(__always)
    mutating func wait(_ seconds: TimeInterval) async throws {
        // An immediate stub only checks for cancellation: no suspension point, no task switch.
        guard seconds > 0 else { return try Task.checkCancellation() }
        if let remaining, remaining < seconds {
            try await Delay.sleep(seconds: remaining)
            throw TransportFailure(kind: .timedOut, underlyingError: URLError(.timedOut))
        }
        try await Delay.sleep(seconds: seconds)
        remaining = remaining.map { $0 - seconds }
    }
}

extension StubTransport {
    /// The scripted peer's answer to a socket's opening handshake: a 101 with its connection
    /// accepted, or the script's refusal.
    static func handshake(_ socket: WebSocketUpgrade, _ request: TransportRequest) -> TransportResponse {
        let script = socket.script ?? .echo
        let url = url(of: request)
        switch script.handshake(request.urlRequest) {
        case .accept(let subprotocol):
            socket.accept(ScriptedWebSocketConnection(script: script))
            var fields: HeaderFields = ["Upgrade": "websocket", "Connection": "Upgrade"]
            if let subprotocol { fields.append(name: "Sec-WebSocket-Protocol", value: subprotocol) }
            return TransportResponse(statusCode: 101, headerFields: fields, url: url, data: Data())
        case .refuse(let status, let headerFields, let body):
            return TransportResponse(statusCode: status, headerFields: HeaderFields(headerFields), url: url, data: body)
        }
    }
}
