import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CourierError: LocalizedError, CustomStringConvertible, CustomDebugStringConvertible {
    /// A sentence a person can act on: what failed, for which request, and why. Secrets are hidden
    /// as ``Redaction/default`` says (a URL's user information, credential query items).
    public var errorDescription: String? {
        errorDescription(redaction: .default)
    }

    /// The stage and the description, as one log line.
    public var description: String {
        "CourierError.\(stage.rawValue): \(errorDescription ?? "")"
    }

    /// The same as ``description``: no secret, whichever way the error is printed.
    public var debugDescription: String {
        description
    }

    /// ``errorDescription``, hiding what `redaction` names.
    /// - Parameter redaction: What to hide.
    /// - Returns: The sentence.
    public func errorDescription(redaction: Redaction) -> String {
        let text = Self.sentence(for: self, redaction)
        // A URL's password (or a token given as its user, `https://TOKEN@host`) may also be quoted
        // by an underlying error's text: it is hidden there too. A plain user name is not a secret.
        let url = request?.url ?? URL(string: Self.mappedURL(of: self) ?? "")
        guard let secret = url?.password ?? url?.user.flatMap({ $0.count >= 16 ? $0 : nil }), secret.count >= 3 else {
            return text
        }
        return text.replacingScalars(of: secret, with: Redaction.mask)
    }

    private static func mappedURL(of error: CourierError) -> String? {
        if case .requestMapping(let url) = error { return url }
        return nil
    }

    private static func sentence(for error: CourierError, _ redaction: Redaction) -> String {
        let describe = { (request: URLRequest) in Self.describe(request, redaction) }
        let describeError = { (error: any Error) in ErrorText.of(error, redaction: redaction) }
        let describeResponse = { (response: Response) in Self.describe(response, redaction) }
        return switch error {
        case .requestMapping(let url):
            "Invalid URL '\(redaction.urlString(url))': check the target's baseURL and path."
        case .parameterEncoding(let error):
            "Could not encode the request's parameters: \(describeError(error))"
        case .encodableMapping(let error):
            "Could not encode the request's body as JSON: \(describeError(error))"
        case .requestBuilding(let error):
            "Could not build the request: \(describeError(error))"
        case .preparation(let error, let request):
            "A plugin failed to prepare \(describe(request)): \(describeError(error))"
        case .adaptation(let error, let request):
            "The interceptor failed to adapt \(describe(request)): \(describeError(error))"
        case .transport(let error, let request):
            "\(describe(request)) failed in transport: \(describeError(error))"
        case .transfer(let error, let request):
            "\(describe(request)) failed on this side of the transfer: \(describeError(error))"
        case .statusCode(let response):
            "\(describeResponse(response)) has a status code the target does not accept."
        case .jsonMapping(let response):
            "The body of \(describeResponse(response)) is not valid JSON."
        case .stringMapping(let response):
            "The body of \(describeResponse(response)) is not a UTF-8 string."
        case .objectMapping(let error, let response):
            "Could not decode the body of \(describeResponse(response)): \(describeError(error))"
        case .keyPathNotFound(let keyPath, let response):
            "The key path '\(keyPath)' is not in the JSON body of \(describeResponse(response))."
        case .underlying(let error, let response):
            (response.map { "\(describeResponse($0)) failed: " } ?? "") + describeError(error)
        case .cancelled:
            "The request was cancelled."
        }
    }

    private static func describe(_ request: URLRequest, _ redaction: Redaction) -> String {
        redaction.requestLine(request)
    }

    private static func describe(_ response: Response, _ redaction: Redaction) -> String {
        let target = response.request.map { describe($0, redaction) } ?? "the response"
        return "\(target) → HTTP \(response.statusCode)"
    }
}
