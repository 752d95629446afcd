import Foundation
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes a tracer's propagation values (W3C `traceparent` and `tracestate` with an
/// OpenTelemetry tracer) into a request's headers, replacing any value already there.
public struct URLRequestInjector: Injector {
    /// Creates the injector.
    public init() {}

    /// Sets the header `key` to `value`.
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The header name.
    ///   - carrier: The request.
    public func inject(_ value: String, forKey key: String, into carrier: inout URLRequest) {
        carrier.setHeaderField(value, named: key)
    }
}
