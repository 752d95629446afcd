import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a stubbed request receives instead of going to the network.
public enum EndpointSampleResponse: Sendable {
    /// A response with this status code and body.
    case networkResponse(Int, Data)
    /// This HTTP response (status code and headers) and body.
    case response(HTTPURLResponse, Data)
    /// A transport failure with this error, such as `URLError(.notConnectedToInternet)`.
    case networkError(any Error)
}
