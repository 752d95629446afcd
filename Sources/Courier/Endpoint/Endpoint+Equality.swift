import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Endpoints compare by the request they build, as Moya's do, so that one can be a dictionary key
/// or be checked in a test:
/// ```swift
/// let zen = Provider<GitHub>.defaultEndpointMapping(for: .zen)
/// let seen: Set<Endpoint> = [zen, zen.replacing(sampleResponseClosure: { .networkResponse(500, Data()) })]
/// print(seen.count)   // 1: the sample response is not compared
/// ```
/// Two endpoints are equal when their ``urlRequest()``s have the same method, URL (query included),
/// header fields (names without case) and body, their ``Endpoint/Options`` are the same, and the
/// bodies their tasks send from elsewhere are: the same upload file, the same multipart parts (data
/// by its bytes, a file by its URL, a stream by its name, type and length, since reading it would
/// use it up), the same ``UploadStream`` value. Two endpoints that cannot build a request are equal
/// when their URL strings, methods, header fields and options are. Closures are not compared: the
/// sample response, and a download's destination (two downloads of the same request are equal).
/// `hash(into:)` hashes what `==` compares, so equal endpoints hash alike.
extension Endpoint: Equatable, Hashable {
    /// Whether `lhs` and `rhs` build the same request (see above).
    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes what ``==(_:_:)`` compares.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    /// What equality compares.
    private struct Identity: Hashable {
        enum Request: Hashable {
            case built(RequestKey)
            case unbuilt(url: String, method: HTTPMethod, headers: [String: String])
        }

        let request: Request
        let options: Options
        let body: TaskBody
    }

    /// A task's body that the request does not hold.
    private enum TaskBody: Hashable {
        case none
        case file(URL)
        case stream(ObjectIdentifier)
        case multipart([PartIdentity])
    }

    private struct PartIdentity: Hashable {
        enum Content: Hashable {
            case data(Data)
            case file(URL)
            case stream(length: UInt64)
        }

        let name: String
        let fileName: String?
        let mimeType: String?
        let content: Content

        init(_ part: MultipartFormData.Part) {
            name = part.name
            fileName = part.fileName
            mimeType = part.mimeType
            content =
                switch part.content {
                case .data(let data): .data(data)
                case .file(let url): .file(url.standardizedFileURL)
                case .stream(_, let length): .stream(length: length)
                }
        }
    }

    private var identity: Identity {
        let request: Identity.Request
        if let built = try? urlRequest() {
            request = .built(RequestKey(built))
        } else {
            let headers = Dictionary(
                (httpHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) },
                uniquingKeysWith: { first, _ in first })
            request = .unbuilt(url: url, method: method, headers: headers)
        }
        return Identity(request: request, options: options, body: Self.body(of: task))
    }

    private static func body(of task: HTTPTask) -> TaskBody {
        switch task {
        case .uploadFile(let url): .file(url.standardizedFileURL)
        case .uploadStream(let stream): .stream(stream.identity)
        case .uploadMultipartFormData(let form), .uploadCompositeMultipartFormData(let form, _):
            .multipart(form.parts.map { PartIdentity($0) })
        default: .none
        }
    }
}
