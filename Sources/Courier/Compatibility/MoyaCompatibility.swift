import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(UIKit)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif

// Moya's names, so that a Moya codebase compiles after `import Moya` becomes `import Courier`:
// where Courier spells a name differently, a deprecated alias with a `renamed:` fix-it; where
// Courier's shape differs (an asynchronous request closure, a form of parts), a bridge. What has
// no counterpart is listed in the "Migrating from Moya" article.

/// Moya's provider: ``Provider``.
@available(*, deprecated, renamed: "Courier.Provider")
public typealias MoyaProvider<Target: TargetType> = Provider<Target>

/// Moya's error: ``CourierError``, whose cases say at which stage a request failed (see the
/// `MoyaError` table of the "Migrating from Moya" article).
@available(*, deprecated, renamed: "CourierError")
public typealias MoyaError = CourierError

/// Moya 15's multipart part: ``MultipartFormData/Part``. In Courier, ``MultipartFormData`` is the
/// whole form, so Moya 15's `MultipartFormData(provider:name:)` part is written
/// `MultipartFormBodyPart(provider:name:)`, as on Moya's main branch.
public typealias MultipartFormBodyPart = MultipartFormData.Part

/// Moya's source of a part's content: ``MultipartFormData/Content``.
@available(*, deprecated, renamed: "MultipartFormData.Content")
public typealias FormDataProvider = MultipartFormData.Content

extension MultipartFormData.Part {
    /// Moya's spelling of ``init(content:name:fileName:mimeType:)``.
    /// - Parameters:
    ///   - provider: The content.
    ///   - name: The form field's name.
    ///   - fileName: The file name.
    ///   - mimeType: The content type.
    @available(*, deprecated, renamed: "init(content:name:fileName:mimeType:)")
    public init(provider: MultipartFormData.Content, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.init(content: provider, name: name, fileName: fileName, mimeType: mimeType)
    }
}

extension HTTPTask {
    /// Moya 15's multipart task: a form of `parts`, as
    /// ``uploadMultipartFormData(_:)`` with `MultipartFormData(parts: parts)`.
    /// - Parameter parts: The form's parts, in order.
    /// - Returns: The upload task.
    public static func uploadMultipart(_ parts: [MultipartFormBodyPart]) -> HTTPTask {
        .uploadMultipartFormData(MultipartFormData(parts: parts))
    }

    /// Moya 15's multipart task with URL parameters, as
    /// ``uploadCompositeMultipartFormData(_:urlParameters:)``.
    /// - Parameters:
    ///   - parts: The form's parts, in order.
    ///   - urlParameters: Parameters encoded into the URL's query.
    /// - Returns: The upload task.
    public static func uploadCompositeMultipart(_ parts: [MultipartFormBodyPart], urlParameters: Parameters) -> HTTPTask
    {
        .uploadCompositeMultipartFormData(MultipartFormData(parts: parts), urlParameters: urlParameters)
    }
}

extension Provider {
    /// Moya's name for the type of ``endpointClosure``.
    public typealias EndpointClosure = @Sendable (Target) -> Endpoint
    /// Moya's name for the type of ``requestClosure``; in Courier it is asynchronous and throws.
    public typealias RequestClosure = @Sendable (Endpoint) async throws -> URLRequest
    /// Moya's name for the callback a Moya-style request closure reports to.
    public typealias RequestResultClosure = @Sendable (Result<URLRequest, CourierError>) -> Void
    /// Moya's name for the type of ``stubClosure``.
    public typealias StubClosure = @Sendable (Target) -> StubBehavior
    /// Moya's name for a completion handler.
    public typealias Completion = @Sendable (Result<Response, CourierError>) -> Void
    /// Moya's name for a progress handler.
    public typealias ProgressBlock = @Sendable (ProgressResponse) -> Void

    /// Creates a provider whose request closure is written Moya's way, with a callback.
    ///
    /// ```swift
    /// let provider = Provider<GitHub>(requestClosure: { endpoint, done in
    ///     var request = try? endpoint.urlRequest()
    ///     request?.setValue(signature(), forHTTPHeaderField: "X-Signature")
    ///     done(request.map { .success($0) } ?? .failure(.requestMapping(endpoint.url)))
    /// })
    /// ```
    /// The first result the closure reports is used, later ones are ignored. Cancelling the request
    /// while the closure has not called back ends it with ``CourierError/cancelled``. Every other
    /// parameter is as in ``init(endpointClosure:requestClosure:stubClosure:callbackQueue:transport:plugins:interceptor:trackInflights:)``.
    /// - Parameters:
    ///   - endpointClosure: Builds the endpoint of a target.
    ///   - requestClosure: Builds the request of an endpoint and reports it once.
    ///   - stubClosure: Whether a target is stubbed.
    ///   - callbackQueue: Where completion handlers run.
    ///   - transport: Sends the requests.
    ///   - plugins: The plugins, in the order they are called.
    ///   - interceptor: Adapts attempts and decides retries.
    ///   - trackInflights: Whether identical concurrent requests share one exchange.
    public convenience init(
        endpointClosure: @escaping EndpointClosure = Provider.defaultEndpointMapping,
        requestClosure: @escaping @Sendable (Endpoint, @escaping RequestResultClosure) -> Void,
        stubClosure: @escaping StubClosure = Provider.neverStub,
        callbackQueue: DispatchQueue = .main,
        transport: any Transport = URLSessionTransport.shared,
        plugins: [any PluginType] = [],
        interceptor: (any RequestInterceptor)? = nil,
        trackInflights: Bool = false
    ) {
        self.init(
            endpointClosure: endpointClosure, requestClosure: Self.callbackRequestMapping(requestClosure),
            stubClosure: stubClosure, callbackQueue: callbackQueue, transport: transport, plugins: plugins,
            interceptor: interceptor, trackInflights: trackInflights)
    }

    /// A request closure written Moya's way, with a callback, as Courier's asynchronous one.
    /// - Parameter mapping: Builds the request of an endpoint and reports it once.
    /// - Returns: A closure to pass as `requestClosure`.
    public static func callbackRequestMapping(
        _ mapping: @escaping @Sendable (Endpoint, @escaping RequestResultClosure) -> Void
    ) -> RequestClosure {
        { endpoint in
            let once = CallbackOnce<URLRequest>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    once.arm(continuation)
                    mapping(endpoint) { result in once.resume(with: result) }
                }
            } onCancel: {
                once.resume(with: .failure(.cancelled))
            }
        }
    }

    /// Moya's table of requests in flight, for code that counts or lists them: each request in
    /// flight (with ``trackInflights``) and how many callers share it.
    @available(*, deprecated, message: "Use isInFlight(_:) or inflightCallers(for:).")
    public var inflightRequests: [URLRequest: Int] {
        inflights.snapshot()
    }
}

extension URL {
    /// Moya's URL of a target: ``TargetType/url``.
    /// - Parameter target: The target.
    @available(*, deprecated, message: "Use target.url.")
    public init<T: TargetType>(target: T) {
        self = target.url
    }
}

// Only where the platform has an image type: UIKit's `UIImage` or AppKit's `NSImage`; Linux has
// none. Courier declares no `Image` alias, which would collide with SwiftUI's `Image`.
#if canImport(UIKit) && !os(watchOS)
    extension Response {
        /// The body as an image, as Moya's `mapImage()`.
        /// - Returns: The image.
        /// - Throws: ``CourierError/objectMapping(_:_:)`` when the body is not an image.
        public func mapImage() throws(CourierError) -> UIImage {
            guard let image = UIImage(data: data) else { throw .objectMapping(ImageMappingError(), self) }
            return image
        }
    }
#elseif canImport(AppKit)
    extension Response {
        /// The body as an image, as Moya's `mapImage()`.
        /// - Returns: The image.
        /// - Throws: ``CourierError/objectMapping(_:_:)`` when the body is not an image.
        public func mapImage() throws(CourierError) -> NSImage {
            guard let image = NSImage(data: data) else { throw .objectMapping(ImageMappingError(), self) }
            return image
        }
    }
#endif

/// The body given to `Response.mapImage()` (on platforms with an image type) is not an image.
public struct ImageMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// A sentence describing the problem.
    public var description: String { "The body is not an image the platform can decode." }
}
