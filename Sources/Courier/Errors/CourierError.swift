import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one error type of Courier: what failed, at which ``Stage``, with the request, the
/// response when there is one, and the underlying error.
///
/// ```swift
/// do {
///     let user = try await provider.request(.user("octocat")).map(User.self)
///     print(user.login)
/// } catch .statusCode(let response) {
///     print("HTTP \(response.statusCode)")
/// } catch {
///     print(error.stage, error.localizedDescription)
/// }
/// ```
/// Every path of a cancelled request ends with ``cancelled``, whatever it was doing.
///
/// A closed set: its cases are the pipeline's stages, and a new way to fail arrives as a new
/// error type inside one of them, so a `switch` over it may list every case (see
/// <doc:SourceStability>).
public enum CourierError: Error, Sendable {
    /// The endpoint's URL string is not a valid absolute URL. No attempt was made.
    case requestMapping(String)
    /// A ``ParameterEncoding`` failed while the request was built. No attempt was made.
    case parameterEncoding(any Error)
    /// An `Encodable` body could not be encoded while the request was built. No attempt was made.
    case encodableMapping(any Error)
    /// The request closure failed, or the built request is not valid (see
    /// ``RequestValidationError``). No attempt was made.
    case requestBuilding(any Error)
    /// A plugin's ``PluginType/prepare(_:target:)`` threw for `request`.
    case preparation(any Error, request: URLRequest)
    /// The interceptor's ``RequestAdapter/adapt(_:context:)`` threw for `request`, or the adapted
    /// request is not valid.
    case adaptation(any Error, request: URLRequest)
    /// The transport failed to send `request` or to receive its response (connection refused,
    /// timed out, lost…); the underlying error is usually a `URLError`.
    case transport(any Error, request: URLRequest)
    /// The local side of a transfer failed for `request`: the file to upload could not be read, an
    /// upload stream broke or gave another length than it declared, or the download could not be
    /// written or moved to its destination. The network is not at fault.
    case transfer(TransferError, request: URLRequest)
    /// The response's status code is not accepted by the target's ``ValidationType``, or by a
    /// `filter` on ``Response``.
    case statusCode(Response)
    /// The response's body is not valid JSON.
    case jsonMapping(Response)
    /// The response's body (or the value at a key path) is not a UTF-8 string.
    case stringMapping(Response)
    /// Decoding the response's body failed; the underlying error is a `DecodingError`.
    case objectMapping(any Error, Response)
    /// The key path given to a `map` function is not in the response's JSON.
    case keyPathNotFound(String, Response)
    /// Any other error, with the response when there is one: errors returned by a retrier's
    /// ``RetryResult/doNotRetryWithError(_:)`` or made by a plugin's `process`.
    case underlying(any Error, Response?)
    /// The request was cancelled, through its ``Cancellable`` or its Swift task.
    case cancelled

    /// The stage of the pipeline that failed.
    public enum Stage: String, Sendable, Hashable {
        /// Building the `URLRequest` from the target, before any attempt.
        case building
        /// A plugin's `prepare`.
        case preparing
        /// The interceptor's `adapt`.
        case adapting
        /// Sending the request and receiving the response.
        case transport
        /// Reading the body to upload, or writing and moving the downloaded file.
        case transfer
        /// Checking the status code.
        case validation
        /// Mapping the response to a value.
        case mapping
        /// The request was cancelled.
        case cancellation
        /// Another failure, from a retrier or a plugin's `process`.
        case other
    }

    /// The stage of the pipeline that failed.
    public var stage: Stage {
        switch self {
        case .requestMapping, .parameterEncoding, .encodableMapping, .requestBuilding: .building
        case .preparation: .preparing
        case .adaptation: .adapting
        case .transport: .transport
        case .transfer: .transfer
        case .statusCode: .validation
        case .jsonMapping, .stringMapping, .objectMapping, .keyPathNotFound: .mapping
        case .cancelled: .cancellation
        case .underlying: .other
        }
    }

    /// The response, whenever the failure happened after one was received: for a request whose
    /// credential could not be refreshed after a 401, that 401.
    public var response: Response? {
        switch self {
        case .statusCode(let response), .jsonMapping(let response), .stringMapping(let response),
            .objectMapping(_, let response), .keyPathNotFound(_, let response):
            response
        case .underlying(_, let response): response
        case .adaptation(let error, _): (error as? AuthenticationError)?.response
        default: nil
        }
    }

    /// The request that failed, when the failure happened after it was built.
    public var request: URLRequest? {
        switch self {
        case .preparation(_, let request), .adaptation(_, let request), .transport(_, let request),
            .transfer(_, let request):
            request
        default: response?.request
        }
    }

    /// The error that caused this one, when there is one.
    public var underlyingError: (any Error)? {
        switch self {
        case .parameterEncoding(let error), .encodableMapping(let error), .requestBuilding(let error),
            .preparation(let error, _), .adaptation(let error, _), .transport(let error, _),
            .objectMapping(let error, _), .underlying(let error, _):
            error
        case .transfer(let error, _): error
        default: nil
        }
    }

    /// The error for a failed exchange: ``transfer(_:request:)`` for a ``TransferError`` (the local
    /// side failed), otherwise ``transport(_:request:)`` with URL-loading errors classified as a
    /// ``TransportFailure``.
    static func exchange(_ error: any Error, request: URLRequest) -> CourierError {
        if let transferError = error as? TransferError { return .transfer(transferError, request: request) }
        return .transport(TransportFailure.normalized(error), request: request)
    }

    /// Whether this is the cancellation error.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
