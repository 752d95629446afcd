import Foundation

/// A plugin that only watches: it never changes a request or a result, so the provider skips its
/// `prepare` and `process` and calls every other hook as for any plugin, in the same order.
///
/// ```swift
/// struct RequestCounter: ObservingPlugin {
///     let count: @Sendable (String) -> Void
///     func willSend(_ request: PreparedRequest, target: any TargetType) {
///         count(request.request.httpMethod ?? "GET")
///     }
/// }
/// ```
/// The two hooks it skips are the only `async` ones: calling them, even as the default that
/// returns its input, costs task frames and executor checks, about 1,300 instructions per plugin
/// and request (measured with callgrind), more than the rest of a logging plugin's work. Courier's
/// logger, activity and metrics plugins are observing plugins.
///
/// Conform only a plugin that keeps the default `prepare` and `process`: an observing plugin's
/// own `prepare` or `process` is never called.
public protocol ObservingPlugin: PluginType {}
