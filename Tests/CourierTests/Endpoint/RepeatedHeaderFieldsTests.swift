import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target that repeats a header name: its field lines go out apart, in order, on a transport
/// that can send them so; one that cannot (URLSession) refuses the request rather than join values
/// that must stay apart.
@Suite("Repeated header fields")
struct RepeatedHeaderFieldsTests {
    struct Tagged: TargetType {
        var baseURL: URL
        var path: String { "/tags" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var headerFields: HeaderFields? {
            HeaderFields([
                .init(name: "X-Tag", value: "red, dark"), .init(name: "Accept", value: "application/json"),
                .init(name: "X-Tag", value: "blue"),
            ])
        }
    }

    @Test("the endpoint holds the joined value for URLRequest and the lines apart, in order")
    func endpoint() throws {
        let endpoint = Provider<Tagged>.defaultEndpointMapping(for: Tagged(baseURL: URL(string: "http://x.test")!))
        #expect(endpoint.httpHeaderFields?["X-Tag"] == "red, dark, blue")
        #expect(endpoint.repeatedHeaderFields.values(for: "x-tag") == ["red, dark", "blue"])
        var request = TransportRequest(urlRequest: try endpoint.urlRequest())
        request.repeatedHeaderFields = endpoint.repeatedHeaderFields
        #expect(request.headerFields.values(for: "X-Tag") == ["red, dark", "blue"])
        #expect(request.headerFields["Accept"] == "application/json")
    }

    @Test("URLSession cannot send them apart: the request is refused before anything is sent")
    func refusedOnURLSession() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let error = await capture { try await Provider<Tagged>().request(Tagged(baseURL: server.baseURL)) }
        guard case .adaptation(let underlying, _)? = error else {
            Issue.record("expected adaptation(unsupportedOptions), got \(String(describing: error))")
            return
        }
        #expect(
            underlying as? RequestValidationError
                == .unsupportedOptions(.repeatedHeaderFields, transport: "URLSessionTransport"))
        #expect(server.requests.isEmpty)
    }

    @Test("a transport that can sends each line, in order")
    func sentApart() async throws {
        let recorded = Locked<[HeaderFields]>([])
        let provider = Provider<Tagged>(
            stubClosure: Provider.immediatelyStub,
            plugins: [FieldsRecorder(recorded: recorded)])
        _ = try await provider.request(Tagged(baseURL: URL(string: "http://x.test")!))
        // The stub transport honours every option; the conformance of a real engine's lines is
        // checked on AsyncHTTPClient.
        #expect(recorded.value.first?.values(for: "X-Tag") == ["red, dark, blue"])
    }

    /// Records the fields of each transmitted request (joined: what `URLRequest` holds).
    struct FieldsRecorder: PluginType {
        let recorded: Locked<[HeaderFields]>
        func willTransmit(_ request: PreparedRequest, target: any TargetType) {
            recorded.withLock { $0.append(HeaderFields(request.request.allHTTPHeaderFields ?? [:])) }
        }
    }
}
