import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("CourierError")
struct CourierErrorTests {
    private let request: URLRequest = {
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users")!)
        request.httpMethod = "POST"
        return request
    }()

    @Test("every case has a stage, and exposes request, response and underlying error")
    func accessors() {
        let response = Response(statusCode: 503, data: Data(), request: request)
        let underlying = URLError(.timedOut)
        let cases: [(CourierError, CourierError.Stage)] = [
            (.requestMapping("::"), .building), (.parameterEncoding(underlying), .building),
            (.encodableMapping(underlying), .building), (.requestBuilding(underlying), .building),
            (.preparation(underlying, request: request), .preparing),
            (.adaptation(underlying, request: request), .adapting),
            (.transport(underlying, request: request), .transport), (.statusCode(response), .validation),
            (.jsonMapping(response), .mapping), (.stringMapping(response), .mapping),
            (.objectMapping(underlying, response), .mapping), (.keyPathNotFound("a", response), .mapping),
            (.underlying(underlying, response), .other), (.cancelled, .cancellation),
        ]
        for (error, stage) in cases {
            #expect(error.stage == stage, "\(error)")
            #expect(error.isCancellation == (stage == .cancellation))
        }
        #expect(CourierError.statusCode(response).response?.statusCode == 503)
        #expect(CourierError.statusCode(response).request?.url == request.url)
        #expect(CourierError.transport(underlying, request: request).request == request)
        #expect(CourierError.transport(underlying, request: request).response == nil)
        #expect((CourierError.transport(underlying, request: request).underlyingError as? URLError)?.code == .timedOut)
        #expect(CourierError.cancelled.underlyingError == nil)
    }

    @Test("descriptions name the request, the status and the cause")
    func descriptions() {
        let response = Response(statusCode: 404, data: Data(), request: request)
        #expect(
            CourierError.statusCode(response).errorDescription
                == "POST https://api.example.com/v1/users → HTTP 404 has a status code the target does not accept.")
        #expect(
            CourierError.requestMapping("::").errorDescription
                == "Invalid URL '::': check the target's baseURL and path.")
        let transport = CourierError.transport(URLError(.cannotConnectToHost), request: request)
        #expect(
            transport.errorDescription?.hasPrefix("POST https://api.example.com/v1/users failed in transport: ") == true
        )
        #expect(transport.errorDescription?.contains("-1004") == true)
        #expect(CourierError.cancelled.description == "CourierError.cancellation: The request was cancelled.")
        #expect(
            CourierError.requestBuilding(RequestValidationError.bodyNotAllowed(.get)).errorDescription
                == "Could not build the request: A GET request must not have a body: use URL parameters, or another method."
        )
        #expect(
            CourierError.underlying(URLError(.timedOut), response).errorDescription?.hasPrefix(
                "POST https://api.example.com/v1/users → HTTP 404 failed: ") == true)
    }
}
