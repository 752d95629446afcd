import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One case being run: the transport, and the checks every case shares.
struct ConformanceRun: Sendable {
    let testCase: TransportConformance.Case
    let transport: any Transport
    let suite: TransportConformance

    /// Fails the case with `difference` unless `condition` holds.
    func expect(_ condition: Bool, _ difference: @autoclosure () -> String) throws(ConformanceFailure) {
        if !condition { throw ConformanceFailure(testCase: testCase, difference: difference()) }
    }

    /// Fails the case with `difference`.
    func fail(_ difference: String) -> ConformanceFailure {
        ConformanceFailure(testCase: testCase, difference: difference)
    }

    /// Sends `request` to the engine, failing the case when it throws. A pipeline case sends it
    /// `throughStages`, the stages a provider puts above the engine (redirects, the time limit);
    /// an engine case sends it as the provider would with nothing above the engine but the time
    /// limit (enforced when the transport does not declare `TransportCapabilities.timeouts`).
    func send(_ request: TransportRequest, throughStages: Bool = false) async throws -> TransportResponse {
        do {
            return try await exchange(request, throughStages: throughStages)
        } catch {
            throw fail("\(request.urlRequest.httpMethod ?? "GET") \(request.urlRequest.url?.path ?? "") threw \(error)")
        }
    }

    /// Sends `request` (as ``send(_:throughStages:)``) and returns the error it must throw,
    /// failing the case when it does not.
    func failure(of request: TransportRequest, throughStages: Bool = false) async throws -> any Error {
        do {
            let response = try await exchange(request, throughStages: throughStages)
            throw fail("expected an error, got status \(response.statusCode) with \(response.data.count) bytes")
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            return error
        }
    }

    private func exchange(_ request: TransportRequest, throughStages: Bool) async throws -> TransportResponse {
        throughStages
            ? try await transport.sendThroughStages(request) : try await transport.sendWithinTimeout(request)
    }

    /// The kind of a transport's error, as ``TransportFailure`` classifies it.
    static func kind(of error: any Error) -> TransportFailure.Kind {
        (error as? TransportFailure)?.kind ?? TransportFailure(error).kind
    }

    /// Whether `error` is a cancellation, in any of the forms a transport may throw.
    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if case .cancelled? = error as? CourierError { return true }
        return (error as NSError).domain == NSURLErrorDomain && (error as NSError).code == URLError.cancelled.rawValue
    }

    /// A request for `path` on `server`.
    static func request(
        _ server: LoopbackServer, _ path: String, method: String = "GET", body: Data? = nil,
        headers: [String: String] = [:]
    ) -> URLRequest {
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    func perform() async throws {
        switch testCase.group {
        case .responses: try await performResponseCase()
        case .requestBodies: try await performRequestBodyCase()
        case .redirects: try await performRedirectCase()
        case .streams: try await performStreamCase()
        case .eventStreams: try await performEventStreamCase()
        case .failures: try await performFailureCase()
        }
    }
}
