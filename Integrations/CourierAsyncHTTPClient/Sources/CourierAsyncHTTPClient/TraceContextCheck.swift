import AsyncHTTPClient
import Courier
import Foundation
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Refuses a request that would go out with two trace contexts: AsyncHTTPClient traces by itself
/// when its configuration has a tracer (swift-distributed-tracing's global one, by default) and
/// adds its context to the headers, whatever they hold; Courier's `TracingPlugin` has injected one
/// already. A server reads two `traceparent` fields as one comma-joined value that does not parse,
/// and the trace breaks at the next hop.
enum TraceContextCheck {
    /// Throws ``AsyncHTTPClientTransportError/clientTracesRequests`` when `client` traces and
    /// `headers` already carry a context its tracer reads.
    static func check(_ headers: HeaderFields, for client: HTTPClient) throws {
        guard let tracer = client.tracer, !(tracer is NoOpTracer) else { return }
        var carried = ServiceContext.topLevel
        tracer.extract(headers, into: &carried, using: FieldExtractor())
        if !carried.isEmpty { throw AsyncHTTPClientTransportError.clientTracesRequests }
    }

    /// Reads a header field by name, without case.
    private struct FieldExtractor: Extractor {
        func extract(key: String, from carrier: HeaderFields) -> String? {
            carrier[key]
        }
    }
}
