import Courier
import CourierTesting
import Foundation
import InMemoryTracing
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tests' API, against the loopback server. Its URLs carry a credential query item, which
/// must never reach a record.
struct ShopAPI: TargetType {
    enum Call: Equatable {
        case items(page: Int)
        case login
    }

    var baseURL: URL
    var call: Call

    var path: String { call == .login ? "/login" : "/items" }
    var method: HTTPMethod { call == .login ? .post : .get }
    var task: HTTPTask {
        switch call {
        case .items(let page):
            .requestParameters(
                parameters: [
                    "page": page, "access_token": ShopAPI.secret, "auth": ["token": ShopAPI.nestedSecret],
                    "user": ["password": ShopAPI.nestedSecret],
                ], encoding: URLEncoding.queryString)
        case .login: .requestPlain
        }
    }
    var headers: [String: String]? { ["Authorization": "Bearer \(ShopAPI.secret)"] }
    var validationType: ValidationType { .successCodes }

    static let secret = "S3CRET-TOKEN-42"
    /// A secret under nested names (`auth[token]`, `user[password]`), as Rails and PHP write them.
    static let nestedSecret = "N3STED-SECRET-7"
}

/// An enum target, to check case names.
enum Catalog: TargetType {
    case product(id: Int)
    case search(String)
    var baseURL: URL { URL(string: "https://catalog.example.com")! }
    var path: String { "/p" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// InMemoryTracer with W3C propagation, as an OpenTelemetry tracer has: it injects a
/// `traceparent` header (version 00, 32-hex trace id, 16-hex span id, sampled).
struct W3CInMemoryTracer: Tracer {
    let base = InMemoryTracer(
        idGenerator: .init(nextTraceID: { W3CInMemoryTracer.hex(16) }, nextSpanID: { W3CInMemoryTracer.hex(8) }))

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        base.startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line
        )
    }

    func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    func forceFlush() {}

    static func hex(_ bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
