import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport of a stubbed request: answers with the endpoint's sample response, at once or
/// after a delay, and is otherwise just another ``Transport``.
struct StubTransport: Transport {
    let behavior: StubBehavior
    let sampleResponse: @Sendable () -> EndpointSampleResponse

    /// Takes the sample response when the attempt starts, as a network transport would start
    /// sending, then delivers it after the stub's delay.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let sample = sampleResponse()
        if case .delayed(let seconds) = behavior {
            try await Delay.sleep(seconds: seconds)
        }
        try Task.checkCancellation()
        switch sample {
        case .networkResponse(let statusCode, let data):
            // No HTTPURLResponse, as in Moya: building one costs more than the rest of a stubbed
            // request. Use `.response(_:_:)` for a stub with headers.
            return TransportResponse(statusCode: statusCode, data: data)
        case .response(let response, let data):
            return TransportResponse(response: response, data: data)
        case .networkError(let error):
            throw error
        }
    }
}
