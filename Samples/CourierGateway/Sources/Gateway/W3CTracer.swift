import Foundation
import Synchronization
import Tracing
import W3CTraceContext

/// A small tracer with W3C Trace Context propagation (`traceparent`), for the demo: a real
/// service bootstraps swift-otel's tracer instead. It counts finished spans by kind and keeps the
/// most recent ones (a bounded number), so that the demo can show them and its tests can check them.
public final class W3CTracer: Tracer, Sendable {
    /// A finished span, as the tracer keeps it.
    public struct Finished: Sendable {
        /// The operation name.
        public let name: String
        /// The kind.
        public let kind: SpanKind
        /// The W3C context (trace ID, span ID).
        public let context: TraceContext
        /// The parent span's ID, for a child span.
        public let parentSpanID: SpanID?
    }

    private struct State {
        var recent: [Finished] = []
        var counts: [String: Int] = [:]
    }

    private let state = Mutex(State())
    private let keep: Int

    /// Creates the tracer.
    /// - Parameter keep: How many finished spans to keep; 1,000 by default.
    public init(keep: Int = 1_000) {
        self.keep = keep
    }

    /// The finished spans kept, oldest first.
    public var finished: [Finished] { state.withLock { $0.recent } }

    /// How many spans of `kind` have finished.
    public func count(of kind: SpanKind) -> Int {
        state.withLock { $0.counts["\(kind)"] ?? 0 }
    }

    func record(_ span: Finished) {
        state.withLock { state in
            state.counts["\(span.kind)", default: 0] += 1
            state.recent.append(span)
            if state.recent.count > keep { state.recent.removeFirst(state.recent.count - keep) }
        }
    }

    /// A span: a child of the context's W3C span, or the root of a new trace.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> W3CSpan {
        var context = context()
        let parent = context.w3cTraceContext
        let traceContext = TraceContext(
            traceID: parent?.traceID ?? .random(), spanID: .random(), flags: .sampled, state: parent?.state ?? .init())
        context.w3cTraceContext = traceContext
        return W3CSpan(
            name: operationName, kind: kind, context: context, parentSpanID: parent?.spanID, tracer: self)
    }

    /// Writes the context's `traceparent`.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let traceContext = context.w3cTraceContext else { return }
        injector.inject(traceContext.traceParentHeaderValue, forKey: "traceparent", into: &carrier)
    }

    /// Reads a `traceparent` into the context.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier),
            let traceContext = try? TraceContext(traceParentHeaderValue: header)
        else { return }
        context.w3cTraceContext = traceContext
    }

    /// Nothing to flush: spans are kept in memory.
    public func forceFlush() {}
}

/// A span of ``W3CTracer``.
public final class W3CSpan: Span, Sendable {
    private struct State {
        var name: String
        var attributes = SpanAttributes()
        var ended = false
    }

    private let state: Mutex<State>
    private let kind: SpanKind
    private let parentSpanID: SpanID?
    private let tracer: W3CTracer
    /// The span's context, with its W3C trace context.
    public let context: ServiceContext

    init(name: String, kind: SpanKind, context: ServiceContext, parentSpanID: SpanID?, tracer: W3CTracer) {
        self.state = Mutex(State(name: name))
        self.kind = kind
        self.context = context
        self.parentSpanID = parentSpanID
        self.tracer = tracer
    }

    /// The operation's name.
    public var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    /// The span's attributes.
    public var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    /// Whether the span has not ended yet.
    public var isRecording: Bool { !state.withLock { $0.ended } }

    /// Not kept by the demo tracer.
    public func setStatus(_ status: SpanStatus) {}
    /// Not kept by the demo tracer.
    public func addEvent(_ event: SpanEvent) {}
    /// Not kept by the demo tracer.
    public func addLink(_ link: SpanLink) {}

    /// Not kept by the demo tracer.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {}

    /// Ends the span and hands it to the tracer, once.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let name = state.withLock { state -> String? in
            guard !state.ended else { return nil }
            state.ended = true
            return state.name
        }
        guard let name, let traceContext = context.w3cTraceContext else { return }
        tracer.record(.init(name: name, kind: kind, context: traceContext, parentSpanID: parentSpanID))
    }
}

/// Where a ``W3CTracer`` keeps the span's W3C context in a `ServiceContext`.
private enum W3CTraceContextKey: ServiceContextKey {
    typealias Value = TraceContext
}

extension ServiceContext {
    /// The W3C trace context of the current span, if a ``W3CTracer`` made one.
    public var w3cTraceContext: TraceContext? {
        get { self[W3CTraceContextKey.self] }
        set { self[W3CTraceContextKey.self] = newValue }
    }
}
