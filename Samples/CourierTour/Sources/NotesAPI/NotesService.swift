import Courier
import Foundation

/// Builds the providers the app uses for ``NotesAPI``.
public enum NotesService {
    /// A provider whose requests go to `baseURL` instead of the production host.
    /// - Parameters:
    ///   - baseURL: The server to talk to.
    ///   - plugins: Plugins, in call order.
    ///   - interceptor: The interceptor, if any.
    /// - Returns: The provider.
    public static func makeProvider(
        baseURL: URL, plugins: [any PluginType] = [], interceptor: (any RequestInterceptor)? = nil
    ) -> Provider<NotesAPI> {
        Provider(
            endpointClosure: { target in
                let endpoint = Provider.defaultEndpointMapping(for: target)
                return Endpoint(
                    url: baseURL.appendingPathComponent(target.path),
                    sampleResponseClosure: endpoint.sampleResponseClosure, method: endpoint.method,
                    task: endpoint.task, httpHeaderFields: endpoint.httpHeaderFields, options: endpoint.options)
            },
            callbackQueue: DispatchQueue(label: "notes.callbacks"),
            plugins: plugins,
            interceptor: interceptor
        )
    }

    /// Retries a 503 up to twice, a tenth of a second apart.
    public static let retryUnavailable = Retrier { _, error, context in
        error.response?.statusCode == 503 && context.attempt <= 2 ? .retryWithDelay(0.1) : .doNotRetry
    }
}
