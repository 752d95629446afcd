import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport of a stubbed request: answers with the endpoint's sample response, at once or
/// after a delay, and is otherwise just another ``Transport``. Package-visible so that the
/// tests hold it to the transport contract (the conformance cases that apply without a server).
package struct StubTransport: Transport {
    let behavior: StubBehavior
    let sampleResponse: @Sendable () -> EndpointSampleResponse

    /// Creates the stub transport of one request.
    package init(behavior: StubBehavior, sampleResponse: @escaping @Sendable () -> EndpointSampleResponse) {
        self.behavior = behavior
        self.sampleResponse = sampleResponse
    }

    /// Everything: a stub honours the timeout, and request options have no network to act on.
    package var capabilities: TransportCapabilities { .all }

    /// Takes the sample response when the attempt starts, as a network transport would start
    /// sending, then delivers it after the stub's delay.
    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        let sample = sampleResponse()
        if case .delayed(let seconds) = behavior {
            guard seconds >= 0 else {
                throw RequestValidationError.invalidTimeInterval(name: "The stub's delay", value: seconds)
            }
            if let timeout = request.timeout, timeout < seconds {
                try await Delay.sleep(seconds: timeout)
                throw TransportFailure(kind: .timedOut, underlying: URLError(.timedOut))
            }
            try await Delay.sleep(seconds: seconds)
        }
        try Task.checkCancellation()
        switch sample {
        case .networkResponse(let statusCode, let data):
            // No HTTPURLResponse, as in Moya: building one costs more than the rest of a stubbed
            // request. Use `.response(_:_:)` for a stub with headers.
            let file = try deliver(data, for: request)
            return TransportResponse(statusCode: statusCode, data: file == nil ? data : Data(), fileURL: file)
        case .response(let response, let data):
            let file = try deliver(data, for: request)
            return TransportResponse(response: response, data: file == nil ? data : Data(), fileURL: file)
        case .networkError(let error):
            throw error
        }
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
        guard request.writesToFile else { return nil }
        let file = try DownloadFile()
        guard file.write(data), file.flush() else {
            file.delete()
            throw TransferError.cannotWriteFile(file.url)
        }
        file.close()
        return file.url
    }
}
