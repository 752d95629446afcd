import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from scripts: a queue of replies per endpoint, such as a 401 then a 200.
///
/// It runs under the whole pipeline like any transport, so plugins, the interceptor, validation and
/// retries behave exactly as on the network.
/// ```swift
/// let transport = ScriptedTransport()
/// transport.enqueue([.status(401), .json(200, #"{"name":"octocat"}"#)], for: GitHub.user("octocat"))
/// let provider = Provider<GitHub>(transport: transport, interceptor: auth)
/// ```
/// Requests are matched on method and URL path (not the query). A request with no reply left gets
/// the fallback reply, or fails with ``ScriptedTransportError/noReply(method:path:)``.
public final class ScriptedTransport: Transport {
    private struct Key: Hashable {
        let method: String
        let path: String
    }

    private struct State {
        var scripts: [Key: [ScriptedReply]] = [:]
        var requests: [URLRequest] = []
    }

    private let state = Locked(State())
    private let fallback: ScriptedReply?

    /// Creates a transport.
    /// - Parameter fallback: The reply to requests with no scripted reply left; none by default.
    public init(fallback: ScriptedReply? = nil) {
        self.fallback = fallback
    }

    /// Every request sent so far, in order, as the transport received it.
    public var requests: [URLRequest] {
        state.withLock { $0.requests }
    }

    /// Adds replies for requests to `target`'s method and path, played in order.
    /// - Parameters:
    ///   - replies: The replies, first one first.
    ///   - target: The target whose method and URL path the replies answer.
    public func enqueue(_ replies: [ScriptedReply], for target: some TargetType) {
        enqueue(replies, method: target.method, path: target.url.path)
    }

    /// Adds replies for requests with `method` to `path`, played in order.
    /// - Parameters:
    ///   - replies: The replies, first one first.
    ///   - method: The HTTP method to match.
    ///   - path: The URL path to match, for example `/users/octocat`.
    public func enqueue(_ replies: [ScriptedReply], method: HTTPMethod, path: String) {
        let key = Key(method: method.rawValue, path: path)
        state.withLock { $0.scripts[key, default: []].append(contentsOf: replies) }
    }

    /// Plays the next reply scripted for the request's method and path.
    /// - Parameter request: The request.
    /// - Returns: The scripted response.
    /// - Throws: A scripted error, `CancellationError` when cancelled during a scripted delay, or
    ///   ``ScriptedTransportError/noReply(method:path:)``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let urlRequest = request.urlRequest
        let key = Key(method: urlRequest.httpMethod ?? "GET", path: urlRequest.url?.path ?? "")
        let reply = state.withLock { state -> ScriptedReply? in
            state.requests.append(urlRequest)
            guard var queue = state.scripts[key], !queue.isEmpty else { return nil }
            let next = queue.removeFirst()
            state.scripts[key] = queue
            return next
        }
        guard let reply = reply ?? fallback else {
            throw ScriptedTransportError.noReply(method: key.method, path: key.path)
        }
        return try await reply.play(for: urlRequest, timeout: request.timeout)
    }

    /// Everything: a scripted reply honours the timeout, and no request option changes it.
    public var capabilities: TransportCapabilities { .all }
}

/// Why a ``ScriptedTransport`` could not answer.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
public enum ScriptedTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No reply is scripted (or left) for this method and path, and there is no fallback.
    case noReply(method: String, path: String)
    /// A ``ScriptedReply/delayed(_:_:)`` delay is negative or NaN.
    case invalidDelay(TimeInterval)

    /// A sentence naming the request or the delay.
    public var description: String {
        switch self {
        case .noReply(let method, let path): "No scripted reply left for \(method) \(path)."
        case .invalidDelay(let seconds): "The scripted delay \(seconds) is not a number of seconds ≥ 0."
        }
    }
}
