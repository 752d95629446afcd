import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call of a generated client, as the Courier target that plugins, interceptors,
/// authenticators and stubs see.
///
/// ```swift
/// struct TodoAuthenticator: Authenticator {
///     func apply(_ credential: Token, to request: inout URLRequest, target: any TargetType) {
///         request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
///     }
///     // …
/// }
/// // In a plugin or an authenticator: tell operations apart by ID.
/// if let operation = target as? OpenAPIOperation, operation.operationID == "refreshToken" { … }
/// ```
/// The generated client renders the path and query itself, already percent-encoded, so the
/// target's ``baseURL`` is the whole request URL and its ``path`` is empty: read the operation by
/// ``operationID``, ``pathTemplate`` or ``renderedPath`` instead.
public struct OpenAPIOperation: TargetType {
    /// The operation's `operationId` in the OpenAPI document, such as `listTodos`.
    public let operationID: String
    /// The request the generated client made: method, rendered path with query, header fields.
    public let request: HTTPRequest
    /// The server URL the generated client was made with.
    public let serverURL: URL
    /// The operation's path in the document, such as `/todos/{id}`, when the bridge knows it
    /// (``CourierTransport/init(provider:pathTemplates:)``); bounded, unlike ``renderedPath``.
    public let pathTemplate: String?
    /// The request body the generated client made, if any.
    public let body: HTTPBody?
    /// The statuses the pipeline accepts; a rejected one goes to the interceptor's retrier (a 401
    /// to the authenticator, a 503 to the retry policy) and, when no retry follows, reaches the
    /// generated client as its answer all the same.
    public let validationType: ValidationType
    /// The whole URL of the request: the server URL, the rendered path and its query.
    public let baseURL: URL

    /// Creates the target of one generated call.
    /// - Parameters:
    ///   - request: The request the generated client made.
    ///   - body: Its body, if any.
    ///   - serverURL: The server URL the client was made with.
    ///   - operationID: The operation's ID.
    ///   - pathTemplate: The operation's path template, if known.
    ///   - validationType: The statuses the pipeline accepts.
    /// - Throws: ``OpenAPIBridgeError/invalidRequestURL(serverURL:path:)`` when the server URL and
    ///   the rendered path make no URL.
    public init(
        request: HTTPRequest, body: HTTPBody?, serverURL: URL, operationID: String, pathTemplate: String? = nil,
        validationType: ValidationType = .successCodes
    ) throws(OpenAPIBridgeError) {
        self.request = request
        self.body = body
        self.serverURL = serverURL
        self.operationID = operationID
        self.pathTemplate = pathTemplate
        self.validationType = validationType
        self.baseURL = try Self.requestURL(serverURL: serverURL, path: request.path ?? "")
    }

    /// The path and query the generated client rendered, such as `/todos/42?expand=true`.
    public var renderedPath: String { request.path ?? "" }

    /// Empty: ``baseURL`` is already the whole URL (see ``renderedPath``).
    public var path: String { "" }

    /// The request's method.
    public var method: Courier.HTTPMethod { Courier.HTTPMethod(rawValue: request.method.rawValue) }

    /// The request's header fields; a field the client set twice holds both values, joined with
    /// `, ` (`; ` for `Cookie`), as HTTP allows.
    public var headers: [String: String]? {
        var joined: [String: String] = [:]
        for field in request.headerFields {
            let name = field.name.canonicalName
            let separator = field.name == .cookie ? "; " : ", "
            joined[name] = joined[name].map { $0 + separator + field.value } ?? field.value
        }
        return joined
    }

    /// The body, streamed as it is sent (``Courier/HTTPTask/uploadStream(_:)``): a body the
    /// generated client can iterate more than once is replayable (retries and redirects send it
    /// again); a one-shot stream is sent once, and a retry that would send it again fails with
    /// ``Courier/TransferError/streamNotReplayable``.
    public var task: HTTPTask {
        guard let body else { return .requestPlain }
        let length: UInt64? =
            switch body.length {
            case .known(let count): UInt64(clamping: count)
            case .unknown: nil
            }
        let replayable = body.iterationBehavior == .multiple
        return .uploadStream(UploadStream(length: length, replayable: replayable) { body })
    }

    /// The whole URL of a request: `serverURL`'s path followed by `path`'s, and `path`'s query.
    static func requestURL(serverURL: URL, path: String) throws(OpenAPIBridgeError) -> URL {
        guard var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: true),
            let rendered = URLComponents(string: path),
            // A path that names another host ("//other.example/…") would be sent to the server URL
            // with that part dropped silently; it is refused instead.
            rendered.scheme == nil, rendered.host == nil
        else { throw .invalidRequestURL(serverURL: serverURL, path: path) }
        let basePath = components.percentEncodedPath
        components.percentEncodedPath =
            (basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath) + rendered.percentEncodedPath
        components.percentEncodedQuery = rendered.percentEncodedQuery
        guard let url = components.url else { throw .invalidRequestURL(serverURL: serverURL, path: path) }
        return url
    }
}
