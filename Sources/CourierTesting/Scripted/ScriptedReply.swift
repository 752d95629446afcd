import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One reply of a ``ScriptedTransport``.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
public indirect enum ScriptedReply: Sendable {
    /// A response with this status code, body and headers.
    case status(Int, body: Data = Data(), headers: [String: String] = [:])
    /// A transport failure with this error, such as `URLError(.timedOut)`.
    case failure(any Error)
    /// Another reply after a delay in seconds; cancelling the request ends the wait.
    case delayed(TimeInterval, ScriptedReply)

    /// A response with a JSON body and `Content-Type: application/json`.
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - json: The JSON text.
    /// - Returns: The reply.
    public static func json(_ statusCode: Int, _ json: String) -> ScriptedReply {
        .status(statusCode, body: Data(json.utf8), headers: ["Content-Type": "application/json"])
    }

    /// Plays the reply; a delay longer than `timeout` ends in `TransportFailure` `.timedOut`.
    func play(for request: URLRequest, timeout: TimeInterval? = nil) async throws -> TransportResponse {
        switch self {
        case .status(let code, let body, let headers):
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: code, httpVersion: "HTTP/1.1", headerFields: headers)
            else { throw URLError(.badURL) }
            return TransportResponse(response: response, data: body)
        case .failure(let error):
            throw error
        case .delayed(let seconds, let reply):
            guard seconds >= 0 else { throw ScriptedTransportError.invalidDelay(seconds) }
            if let timeout, timeout < seconds {
                try await Delay.sleep(seconds: timeout)
                throw TransportFailure(kind: .timedOut, underlyingError: URLError(.timedOut))
            }
            try await Delay.sleep(seconds: seconds)
            return try await reply.play(for: request, timeout: timeout.map { $0 - seconds })
        }
    }
}
