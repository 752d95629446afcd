import Foundation

/// The parameters of a request: keys to values that are strings, numbers, booleans, arrays or
/// nested dictionaries of those.
///
/// A nested dictionary whose values have different types needs its own annotation, because
/// Swift infers such a literal as `[String: Any]`, which is not `Sendable`:
/// ```swift
/// let address: Parameters = ["city": "Oslo", "zip": 150]
/// let parameters: Parameters = ["name": "Ann", "address": address]
/// ```
public typealias Parameters = [String: any Sendable]

/// What a request carries besides its URL, method and headers: its body and query parameters.
///
/// The name avoids Swift Concurrency's `Task`, the clash Moya users have to work around.
/// ```swift
/// var task: HTTPTask {
///     switch self {
///     case .search(let text): .requestParameters(parameters: ["q": text], encoding: URLEncoding.queryString)
///     case .create(let item): .requestJSONEncodable(item)
///     case .zen: .requestPlain
///     }
/// }
/// ```
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum HTTPTask: Sendable {
    /// A request with no body and no added parameters.
    case requestPlain
    /// A request whose body is `data`, sent as it is.
    case requestData(Data)
    /// A request whose body is the value encoded as JSON by a `JSONEncoder` with sorted keys.
    /// `Content-Type: application/json` is set unless a content type is given.
    case requestJSONEncodable(any Encodable & Sendable)
    /// A request whose body is the value encoded as JSON by `encoder`.
    /// `Content-Type: application/json` is set unless a content type is given.
    case requestCustomJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder)
    /// A request whose parameters are encoded by `encoding` (into the query string or the body).
    case requestParameters(parameters: Parameters, encoding: any ParameterEncoding)
    /// A request with a raw body and parameters encoded into the query string.
    case requestCompositeData(bodyData: Data, urlParameters: Parameters)
    /// A request with body parameters encoded by `bodyEncoding` and parameters encoded into the
    /// query string.
    ///
    /// A ``URLEncoding`` body encoding always writes to the body here, whatever its destination
    /// (Moya stops the program in that case).
    case requestCompositeParameters(
        bodyParameters: Parameters,
        bodyEncoding: any ParameterEncoding,
        urlParameters: Parameters
    )
    /// A request whose body is the file at this URL, streamed from disk.
    case uploadFile(URL)
    /// A request whose body is read from a stream as it is sent.
    case uploadStream(UploadStream)
    /// A `multipart/form-data` request; large bodies are streamed from a temporary file.
    case uploadMultipartFormData(MultipartFormData)
    /// A `multipart/form-data` request with parameters encoded into the query string.
    case uploadCompositeMultipartFormData(MultipartFormData, urlParameters: Parameters)
    /// A download written to a file, then moved where `destination` says.
    case downloadDestination(DownloadDestination)
    /// A download with parameters encoded by `encoding`, written to a file, then moved where
    /// `destination` says.
    case downloadParameters(parameters: Parameters, encoding: any ParameterEncoding, destination: DownloadDestination)

    /// Whether the response body is written to a file rather than kept in memory.
    public var isDownload: Bool {
        downloadDestination != nil
    }

    /// Where the body of an upload task comes from.
    var transportBody: TransportRequest.Body {
        switch self {
        case .uploadFile(let url): .file(url)
        case .uploadStream(let stream): .stream(stream)
        case .uploadMultipartFormData(let form), .uploadCompositeMultipartFormData(let form, _): .multipart(form)
        default: .inline
        }
    }

    /// The destination of a download task.
    var downloadDestination: DownloadDestination? {
        switch self {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination): destination
        default: nil
        }
    }
}
