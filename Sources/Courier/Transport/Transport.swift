import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one attempt's request and returns what came back: the last stage of the pipeline.
///
/// The default is ``URLSessionTransport``. A stubbed target uses Courier's stub transport
/// instead, and CourierTesting's `ScriptedTransport` plays back scripted responses; write your
/// own to put another HTTP client under Courier:
/// ```swift
/// struct LoggingTransport: Transport {
///     let base: any Transport
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         print("→", request.urlRequest.url!)
///         return try await base.send(request)
///     }
/// }
/// ```
/// A transport returns every HTTP status code as a response; it throws only when no response was
/// received. It should stop promptly when the calling Swift task is cancelled.
public protocol Transport: Sendable {
    /// Sends `request` and returns the response with its whole body.
    /// - Parameter request: What to send.
    /// - Returns: The HTTP response and its body.
    /// - Throws: A transport error (usually a `URLError`) when no response was received.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// What a ``Transport`` is asked to send.
public struct TransportRequest: Sendable {
    /// The request, as adapted by the interceptor.
    public var urlRequest: URLRequest

    /// Creates a transport request.
    /// - Parameter urlRequest: The request to send.
    public init(urlRequest: URLRequest) {
        self.urlRequest = urlRequest
    }
}

/// What a ``Transport`` received.
public struct TransportResponse: Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The HTTP response with its headers, when the transport has one.
    public let response: HTTPURLResponse?
    /// The whole body.
    public let data: Data

    /// Creates a transport response from an HTTP response.
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - data: The body.
    public init(response: HTTPURLResponse, data: Data) {
        self.statusCode = response.statusCode
        self.response = response
        self.data = data
    }

    /// Creates a transport response with a status code and no headers (a stub's
    /// `.networkResponse`, for example).
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - data: The body.
    public init(statusCode: Int, data: Data) {
        self.statusCode = statusCode
        self.response = nil
        self.data = data
    }
}
