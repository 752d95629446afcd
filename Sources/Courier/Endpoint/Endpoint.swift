import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything needed to build a request for a target: the resolved URL, method, task, headers,
/// request options and the sample response used when the target is stubbed.
///
/// A provider's `endpointClosure` turns each target into an endpoint; change one there to add
/// headers or swap the sample response:
/// ```swift
/// let provider = Provider<GitHub>(endpointClosure: { target in
///     Provider.defaultEndpointMapping(for: target).adding(newHTTPHeaderFields: ["X-App": "1"])
/// })
/// ```
public struct Endpoint: Sendable {
    /// The absolute URL string.
    public var url: String {
        resolvedURL?.absoluteString ?? urlString
    }

    /// The URL string given to the initialiser, when it was built from a string.
    private let urlString: String
    /// The URL, when the endpoint was built from one: ``urlRequest()`` then uses it as it is,
    /// instead of parsing ``url`` again.
    let resolvedURL: URL?
    /// Produces the response of a stubbed request; called once per stubbed attempt.
    public private(set) var sampleResponseClosure: @Sendable () -> EndpointSampleResponse
    /// The HTTP method.
    public let method: HTTPMethod
    /// The body and parameters.
    public let task: HTTPTask
    /// The headers, or `nil` for none. A name the target repeats (``TargetType/headerFields``)
    /// holds its values joined with ", ", as `URLRequest` can hold them.
    public let httpHeaderFields: [String: String]?
    /// The fields whose name the target repeats, in order, each value apart: a transport that can
    /// (``TransportCapabilities/repeatedHeaderFields``) sends them as separate field lines.
    public internal(set) var repeatedHeaderFields = HeaderFields()
    /// The per-attempt timeout, the cache policy and whether cookies are handled.
    public let options: Options

    /// Per-request settings besides the URL, method, headers and body.
    public struct Options: Sendable, Hashable {
        /// The longest an attempt may take, or `nil` for the transport's idle timeout.
        public var timeoutInterval: TimeInterval?
        /// The longest the whole request may take, retries included, or `nil` for no limit.
        public var totalTimeoutInterval: TimeInterval?
        /// The cache policy, or `nil` for the transport's default.
        public var cachePolicy: URLRequest.CachePolicy?
        /// Whether the request sends and stores cookies (`URLRequest.httpShouldHandleCookies`);
        /// `true` by default.
        public var handlesCookies = true

        /// Creates options.
        /// - Parameters:
        ///   - timeoutInterval: The longest an attempt may take, or `nil` for the default.
        ///   - totalTimeoutInterval: The longest the whole request may take, or `nil` for no limit.
        ///   - cachePolicy: The cache policy, or `nil` for the default.
        public init(
            timeoutInterval: TimeInterval? = nil, totalTimeoutInterval: TimeInterval? = nil,
            cachePolicy: URLRequest.CachePolicy? = nil
        ) {
            self.timeoutInterval = timeoutInterval
            self.totalTimeoutInterval = totalTimeoutInterval
            self.cachePolicy = cachePolicy
        }
    }

    /// Creates an endpoint.
    /// - Parameters:
    ///   - url: The absolute URL string.
    ///   - sampleResponseClosure: Produces the response of a stubbed request.
    ///   - method: The HTTP method.
    ///   - task: The body and parameters.
    ///   - httpHeaderFields: The headers, or `nil` for none.
    ///   - options: The timeout and cache policy; none by default.
    public init(
        url: String,
        sampleResponseClosure: @escaping @Sendable () -> EndpointSampleResponse,
        method: HTTPMethod,
        task: HTTPTask,
        httpHeaderFields: [String: String]?,
        options: Options = Options()
    ) {
        self.urlString = url
        self.resolvedURL = nil
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
        self.options = options
    }

    /// Creates an endpoint from a URL (what ``Provider/defaultEndpointMapping(for:)`` does).
    /// - Parameters:
    ///   - url: The absolute URL.
    ///   - sampleResponseClosure: Produces the response of a stubbed request.
    ///   - method: The HTTP method.
    ///   - task: The body and parameters.
    ///   - httpHeaderFields: The headers, or `nil` for none.
    ///   - options: The timeout and cache policy; none by default.
    public init(
        url: URL,
        sampleResponseClosure: @escaping @Sendable () -> EndpointSampleResponse,
        method: HTTPMethod,
        task: HTTPTask,
        httpHeaderFields: [String: String]?,
        options: Options = Options()
    ) {
        self.urlString = ""
        self.resolvedURL = url
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
        self.options = options
    }

    /// A copy with `newHTTPHeaderFields` merged into the headers; the new values win. Names are
    /// compared without case, as HTTP does: a new `content-type` replaces a `Content-Type`.
    /// - Parameter newHTTPHeaderFields: The headers to add or replace.
    /// - Returns: The new endpoint.
    public func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        guard !newHTTPHeaderFields.isEmpty else { return self }
        let replaced = Set(newHTTPHeaderFields.keys.map { $0.lowercased() })
        let kept = (httpHeaderFields ?? [:]).filter { !replaced.contains($0.key.lowercased()) }
        return copy(task: task, headers: kept.merging(newHTTPHeaderFields) { _, new in new })
    }

    /// A copy with another task.
    /// - Parameter task: The new task.
    /// - Returns: The new endpoint.
    public func replacing(task: HTTPTask) -> Endpoint {
        copy(task: task, headers: httpHeaderFields)
    }

    /// A copy with another sample response, for stubbed requests.
    /// - Parameter sampleResponseClosure: Produces the response of a stubbed request.
    /// - Returns: The new endpoint.
    public func replacing(sampleResponseClosure: @escaping @Sendable () -> EndpointSampleResponse) -> Endpoint {
        var copy = copy(task: task, headers: httpHeaderFields)
        copy.sampleResponseClosure = sampleResponseClosure
        return copy
    }

    /// A copy with other options.
    /// - Parameter options: The new options.
    /// - Returns: The new endpoint.
    public func replacing(options: Options) -> Endpoint {
        copy(task: task, headers: httpHeaderFields, options: options)
    }

    private func copy(task: HTTPTask, headers: [String: String]?, options: Options? = nil) -> Endpoint {
        let options = options ?? self.options
        var copy =
            if let resolvedURL {
                Endpoint(
                    url: resolvedURL, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
                    httpHeaderFields: headers, options: options)
            } else {
                Endpoint(
                    url: urlString, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
                    httpHeaderFields: headers, options: options)
            }
        // A repeated name another value replaced is no longer repeated.
        copy.repeatedHeaderFields = HeaderFields(
            repeatedHeaderFields.filter {
                headers?[$0.name] == HeaderFields.joined(repeatedHeaderFields.values(for: $0.name))
            })
        return copy
    }

    /// The endpoint of `fields`, names repeated or not: joined values in ``httpHeaderFields``, the
    /// repeated ones apart in ``repeatedHeaderFields``.
    func with(headerFields fields: HeaderFields) -> Endpoint {
        var names: [String: String] = [:]
        var repeated = Set<String>()
        for field in fields {
            let key = field.name.lowercased()
            if names[key] != nil { repeated.insert(key) }
            names[key] = field.name
        }
        var joined: [String: String] = [:]
        for name in names.values {
            joined[name] = HeaderFields.joined(fields.values(for: name))
        }
        var copy = self.copy(task: task, headers: joined)
        copy.repeatedHeaderFields = HeaderFields(fields.filter { repeated.contains($0.name.lowercased()) })
        return copy
    }
}
