import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed attempt: its error and the request as far as it got.
struct AttemptFailure: Error {
    let error: CourierError
    let request: URLRequest
}

extension Provider {
    /// One attempt: prepare → willSend → adapt → transport → validation.
    func attempt(
        _ attempt: Int, of target: Target, from base: URLRequest, via transport: any Transport
    ) async -> Result<Response, AttemptFailure> {
        var request = base
        do {
            for plugin in plugins {
                request = try await plugin.prepare(request, target: target)
            }
        } catch {
            return .failure(
                AttemptFailure(error: Self.failure(error) { .preparation($0, request: request) }, request: request))
        }
        if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled, request: request)) }

        let prepared = PreparedRequest(request: request, attempt: attempt)
        for plugin in plugins {
            plugin.willSend(prepared, target: target)
        }

        switch await adapt(request, context: RequestContext(target: target, attempt: attempt)) {
        case .success(let adapted): request = adapted
        case .failure(let failure): return .failure(failure)
        }

        let received: TransportResponse
        do {
            received = try await transport.send(TransportRequest(urlRequest: request))
        } catch {
            return .failure(
                AttemptFailure(error: Self.failure(error) { .transport($0, request: request) }, request: request))
        }
        let response = Response(
            statusCode: received.response.statusCode, data: received.data, request: request,
            response: received.response)
        guard target.validationType.accepts(response.statusCode) else {
            return .failure(AttemptFailure(error: .statusCode(response), request: request))
        }
        return .success(response)
    }

    /// The interceptor's `adapt`, then the checks every request must pass before it is sent.
    private func adapt(_ request: URLRequest, context: RequestContext) async -> Result<URLRequest, AttemptFailure> {
        var adapted = request
        if let interceptor {
            do {
                adapted = try await interceptor.adapt(request, context: context)
            } catch {
                return .failure(
                    AttemptFailure(error: Self.failure(error) { .adaptation($0, request: request) }, request: request))
            }
        }
        if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled, request: adapted)) }
        if let invalid = RequestValidationError.check(adapted) {
            return .failure(AttemptFailure(error: .adaptation(invalid, request: adapted), request: adapted))
        }
        return .success(adapted)
    }
}
