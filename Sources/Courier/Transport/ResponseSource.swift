import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a response's `HTTPURLResponse` comes from: given by the transport (URLSession makes
/// one), or made from an engine's head the first time it is asked for. Making one costs about
/// 16 µs on Linux, more than the rest of the pipeline, and most requests never ask.
enum ResponseSource: Sendable {
    /// The transport's response, or none.
    case given(HTTPURLResponse?)
    /// Made from an engine's head when first needed.
    case made(MadeResponse)

    var response: HTTPURLResponse? {
        switch self {
        case .given(let response): response
        case .made(let made): made.response
        }
    }
}

/// Foundation's response for an engine's head, made once, when first asked for.
final class MadeResponse: Sendable {
    private let url: URL
    private let statusCode: Int
    private let fields: HeaderFields
    private let made = Locked<HTTPURLResponse??>(nil)

    init(url: URL, statusCode: Int, fields: HeaderFields) {
        self.url = url
        self.statusCode = statusCode
        self.fields = fields
    }

    var response: HTTPURLResponse? {
        made.withLock { made in
            if let response = made { return response }
            let response = HTTPURLResponse(url: url, statusCode: statusCode, headerFields: fields)
            made = .some(response)
            return response
        }
    }
}
