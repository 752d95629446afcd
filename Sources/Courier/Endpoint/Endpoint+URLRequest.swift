import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Endpoint {
    /// Builds the `URLRequest`: URL, method, headers, options, then the task's body and parameters.
    /// - Returns: The request.
    /// - Throws: ``CourierError/requestMapping(_:)`` for an invalid URL,
    ///   ``CourierError/parameterEncoding(_:)`` or ``CourierError/encodableMapping(_:)`` when the
    ///   task cannot be encoded, ``CourierError/requestBuilding(_:)`` with
    ///   ``RequestValidationError/bodyNotAllowed(_:)`` for a `GET` or `HEAD` with a body.
    public func urlRequest() throws(CourierError) -> URLRequest {
        guard let requestURL = resolvedURL ?? URL(string: url), Self.hasScheme(requestURL) else {
            throw .requestMapping(url)
        }
        var request = URLRequest(url: requestURL)
        // GET is URLRequest's default; setting it anyway costs a method normalisation on Linux.
        if method != .get { request.httpMethod = method.rawValue }
        // A new request has no fields: setting none would only cost a write.
        if let httpHeaderFields { request.allHTTPHeaderFields = Self.mergingCase(httpHeaderFields) }
        if let invalid = options.invalidTimeInterval { throw .requestBuilding(invalid) }
        // An infinite timeout goes on the request as it is: the transport clamps what reaches its engine.
        if let timeout = options.timeoutInterval { request.timeoutInterval = timeout }
        if let cachePolicy = options.cachePolicy { request.cachePolicy = cachePolicy }
        if !options.handlesCookies { request.httpShouldHandleCookies = false }
        request = try task.apply(to: request)
        // A plain task leaves the request as built here (a URL, this method, a checked timeout,
        // no body), which passes the request's checks: reading its fields back on Linux costs
        // about 650 instructions. Any other task is checked whole.
        if case .requestPlain = task { return request }
        if let error = RequestValidationError.check(request) ?? RequestValidationError.check(task, method: method) {
            throw .requestBuilding(error)
        }
        return request
    }

    /// Whether `url` has a scheme (`letter *(letter / digit / "+" / "-" / ".") ":"`, RFC 3986),
    /// read from its text: `URL.scheme` builds a substring and costs more (callgrind).
    static func hasScheme(_ url: URL) -> Bool {
        var text = url.absoluteString
        return text.withUTF8 { bytes in
            guard let first = bytes.first, isLetter(first) else { return false }
            for byte in bytes.dropFirst() {
                if byte == UInt8(ascii: ":") { return true }
                guard
                    isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                else { return false }
            }
            return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// `fields` with one entry per header name, compared without case. When a dictionary holds
    /// one name in two cases (`Content-Type` and `content-type`), which one a request got used to
    /// depend on the dictionary's order, which changes from launch to launch; now the spelling
    /// that sorts last wins, always.
    static func mergingCase(_ fields: [String: String]) -> [String: String] {
        guard hasNameInTwoCases(fields) else { return fields }
        var merged: [String: (name: String, value: String)] = [:]
        for name in fields.keys.sorted() {
            merged[name.lowercased()] = (name, fields[name] ?? "")
        }
        return Dictionary(uniqueKeysWithValues: merged.values.map { ($0.name, $0.value) })
    }

    /// Whether two of the names of `fields` differ only in case. A few names (the usual case) are
    /// compared pair by pair, without lowercased copies or hashing, their ASCII letters without
    /// case (a name with other letters is not a token, and is refused before it is sent); many,
    /// through a set of lowercased names.
    private static func hasNameInTwoCases(_ fields: [String: String]) -> Bool {
        let names = fields.keys
        guard names.count <= 16 else {
            var seen = Set<String>()
            return names.contains { !seen.insert($0.lowercased()).inserted }
        }
        var first = names.startIndex
        while first != names.endIndex {
            var second = names.index(after: first)
            while second != names.endIndex {
                if names[first].equalsIgnoringASCIICase(names[second]) { return true }
                second = names.index(after: second)
            }
            first = names.index(after: first)
        }
        return false
    }
}

extension RequestValidationError {
    /// The reason Courier would refuse to send `request`, or `nil` when it may be sent.
    static func check(_ request: URLRequest) -> RequestValidationError? {
        check(request, method: request.httpMethod)
    }

    /// ``check(_:)`` with the request's method read already.
    static func check(_ request: URLRequest, method: String?) -> RequestValidationError? {
        guard request.url != nil else { return .missingURL }
        if !(request.timeoutInterval > 0) {
            return .invalidTimeInterval(name: "The request's timeoutInterval", value: request.timeoutInterval)
        }
        // URLRequest keeps its method upper-cased, so plain comparisons suffice here.
        let method = method ?? "GET"
        if method == "GET" || method == "HEAD", let body = request.httpBody, !body.isEmpty {
            return .bodyNotAllowed(HTTPMethod(rawValue: method))
        }
        return nil
    }
}

extension Endpoint.Options {
    /// The error of a timeout that is NaN, negative or zero, or `nil` when both are valid.
    var invalidTimeInterval: RequestValidationError? {
        for (name, value) in [("timeoutInterval", timeoutInterval), ("totalTimeoutInterval", totalTimeoutInterval)] {
            if let value, !(value > 0) { return .invalidTimeInterval(name: name, value: value) }
        }
        return nil
    }

    /// ``Endpoint/Options/timeoutInterval`` as a limit Courier enforces: `nil` for none or infinity.
    var attemptLimit: TimeInterval? { Self.finite(timeoutInterval) }

    /// ``Endpoint/Options/totalTimeoutInterval`` as a limit: `nil` for none or infinity.
    var totalLimit: TimeInterval? { Self.finite(totalTimeoutInterval) }

    private static func finite(_ seconds: TimeInterval?) -> TimeInterval? {
        seconds.flatMap { $0.isFinite ? $0 : nil }
    }
}

extension RequestValidationError {
    /// The reason a method cannot carry the upload `task`, or `nil`.
    static func check(_ task: HTTPTask, method: HTTPMethod) -> RequestValidationError? {
        switch task {
        case .uploadFile, .uploadStream, .uploadMultipartFormData, .uploadCompositeMultipartFormData:
            method.forbidsBody ? .bodyNotAllowed(method) : nil
        default:
            nil
        }
    }
}

extension RequestValidationError {
    /// The reason a provider refuses to send the request of `task` although it builds: a
    /// multipart form without parts (RFC 2046 asks for at least one; Moya stops the program when
    /// it sends one). `nil` when it may be sent.
    static func check(sending task: HTTPTask) -> RequestValidationError? {
        switch task {
        case .uploadMultipartFormData(let form), .uploadCompositeMultipartFormData(let form, _):
            form.parts.isEmpty ? .emptyMultipartFormData : nil
        default:
            nil
        }
    }
}

extension HTTPTask {
    /// Returns `request` with this task's body and parameters applied.
    func apply(to request: URLRequest) throws(CourierError) -> URLRequest {
        var request = request
        switch self {
        case .requestPlain:
            return request
        case .requestData(let data):
            request.httpBody = data
            return request
        case .requestJSONEncodable(let value):
            return try Self.encodeJSON(value, encoder: Self.defaultJSONEncoder(), into: request)
        case .requestCustomJSONEncodable(let value, let encoder):
            return try Self.encodeJSON(value, encoder: encoder, into: request)
        case .requestParameters(let parameters, let encoding):
            return try Self.encode(parameters, with: encoding, into: request)
        case .requestCompositeData(let body, let urlParameters):
            request.httpBody = body
            return try Self.encode(urlParameters, with: URLEncoding.queryString, into: request)
        case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            let bodyOnly = (bodyEncoding as? URLEncoding).map {
                URLEncoding(destination: .httpBody, arrayEncoding: $0.arrayEncoding, boolEncoding: $0.boolEncoding)
            }
            request = try Self.encode(bodyParameters, with: bodyOnly ?? bodyEncoding, into: request)
            return try Self.encode(urlParameters, with: URLEncoding.queryString, into: request)
        case .uploadFile, .uploadStream:
            return request
        case .uploadMultipartFormData(let form):
            return try Self.multipart(form, into: request)
        case .uploadCompositeMultipartFormData(let form, let urlParameters):
            request = try Self.multipart(form, into: request)
            return try Self.encode(urlParameters, with: URLEncoding.queryString, into: request)
        case .downloadDestination:
            return request
        case .downloadParameters(let parameters, let encoding, _):
            return try Self.encode(parameters, with: encoding, into: request)
        }
    }

    /// Sets the multipart `Content-Type`; the transport encodes the body when it sends it. A form
    /// without parts builds, as in Moya; a provider refuses to send it
    /// (``RequestValidationError/check(sending:)``).
    private static func multipart(_ form: MultipartFormData, into request: URLRequest) throws(CourierError)
        -> URLRequest
    {
        var request = request
        request.setHeaderField(form.contentType, named: "Content-Type")
        return request
    }

    /// A `JSONEncoder` with sorted keys: the same value always gives the same bytes (Linux's
    /// encoder otherwise varies the key order between runs), which keeps signatures, caches and
    /// `trackInflights` keys stable.
    private static func defaultJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    private static func encodeJSON(
        _ value: any Encodable, encoder: JSONEncoder, into request: URLRequest
    ) throws(CourierError) -> URLRequest {
        var request = request
        do {
            request.httpBody = try encoder.encode(value)
        } catch {
            throw .encodableMapping(error)
        }
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setHeaderField("application/json", named: "Content-Type")
        }
        return request
    }

    private static func encode(
        _ parameters: Parameters, with encoding: any ParameterEncoding, into request: URLRequest
    ) throws(CourierError) -> URLRequest {
        do {
            return try encoding.encode(request, with: parameters)
        } catch let error as CourierError {
            throw error
        } catch {
            throw .parameterEncoding(error)
        }
    }
}
