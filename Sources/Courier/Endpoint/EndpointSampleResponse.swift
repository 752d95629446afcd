import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a stubbed request receives instead of going to the network.
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum EndpointSampleResponse: Sendable {
    /// A response with this status code and body.
    case networkResponse(Int, Data)
    /// This HTTP response (status code and headers) and body.
    case response(HTTPURLResponse, Data)
    /// A response with this status code whose body arrives chunk by chunk, as the sample stream
    /// says (with its header fields).
    case streamedResponse(Int, SampleStream)
    /// A transport failure with this error, such as `URLError(.notConnectedToInternet)`.
    case networkError(any Error)
}
