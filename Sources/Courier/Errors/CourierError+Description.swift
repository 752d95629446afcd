import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CourierError: LocalizedError, CustomStringConvertible {
    /// A sentence a person can act on: what failed, for which request, and why.
    public var errorDescription: String? {
        switch self {
        case .requestMapping(let url):
            "Invalid URL '\(url)': check the target's baseURL and path."
        case .parameterEncoding(let error):
            "Could not encode the request's parameters: \(Self.describe(error))"
        case .encodableMapping(let error):
            "Could not encode the request's body as JSON: \(Self.describe(error))"
        case .requestBuilding(let error):
            "Could not build the request: \(Self.describe(error))"
        case .preparation(let error, let request):
            "A plugin failed to prepare \(Self.describe(request)): \(Self.describe(error))"
        case .adaptation(let error, let request):
            "The interceptor failed to adapt \(Self.describe(request)): \(Self.describe(error))"
        case .transport(let error, let request):
            "\(Self.describe(request)) failed in transport: \(Self.describe(error))"
        case .statusCode(let response):
            "\(Self.describe(response)) has a status code the target does not accept."
        case .jsonMapping(let response):
            "The body of \(Self.describe(response)) is not valid JSON."
        case .stringMapping(let response):
            "The body of \(Self.describe(response)) is not a UTF-8 string."
        case .objectMapping(let error, let response):
            "Could not decode the body of \(Self.describe(response)): \(Self.describe(error))"
        case .keyPathNotFound(let keyPath, let response):
            "The key path '\(keyPath)' is not in the JSON body of \(Self.describe(response))."
        case .underlying(let error, let response):
            (response.map { "\(Self.describe($0)) failed: " } ?? "") + Self.describe(error)
        case .cancelled:
            "The request was cancelled."
        }
    }

    /// The stage and the description, as one log line.
    public var description: String {
        "CourierError.\(stage.rawValue): \(errorDescription ?? "")"
    }

    private static func describe(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "(no URL)")"
    }

    private static func describe(_ response: Response) -> String {
        let target = response.request.map(describe) ?? "the response"
        return "\(target) → HTTP \(response.statusCode)"
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? any LocalizedError, let text = error.errorDescription { return text }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            return "\(nsError.localizedDescription) (URLError \(nsError.code))"
        }
        return String(describing: error)
    }
}
