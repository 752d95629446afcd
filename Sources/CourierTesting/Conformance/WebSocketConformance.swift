import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every `Transport` that opens WebSockets (`TransportCapabilities.webSocket`) must do, as
/// cases an engine's author runs from their test target against ``WebSocketServer``s the cases
/// start on 127.0.0.1, through a provider's whole pipeline.
///
/// ```swift
/// @Test(arguments: WebSocketConformance.Case.allCases)
/// func sockets(_ testCase: WebSocketConformance.Case) async throws {
///     try await WebSocketConformance { MyTransport() }.check(testCase)
/// }
/// ```
/// A case that fails throws a ``WebSocketConformanceFailure`` naming the case and what differed.
public struct WebSocketConformance: Sendable {
    /// A behaviour every socket engine must have.
    public enum Case: String, CaseIterable, Sendable {
        /// Text, binary and a 1 MiB message go out and come back whole.
        case echo
        /// A text message in three fragments, with a ping between the first two, arrives whole,
        /// and the ping is answered with a pong carrying its payload.
        case fragmentsAndControlFrames
        /// A close from the client carries its code and reason to the server, and returns.
        case closeByClient
        /// A close from the server ends the messages with its code and reason.
        case closeByServer
        /// Text that is not UTF-8 fails with `WebSocketError.invalidUTF8` and closes with 1007.
        case invalidUTF8
        /// A masked frame from the server fails with `WebSocketError.protocolViolation`.
        case maskedServerFrame
        /// A frame with a reserved bit set (RSV1: compressed) when no extension was agreed fails
        /// with `WebSocketError.protocolViolation` and closes with 1002 (RFC 6455 §5.2).
        case reservedBits
        /// A frame announcing more than the limit fails with
        /// `WebSocketError.messageTooBig` and closes with 1009 before it is read whole.
        case oversizedFrame
        /// A server that never answers the close: `close` returns within its close timeout.
        case unansweredClose
        /// A refused handshake is the response it is: status, header fields and body.
        case refusedHandshake
        /// A connection cut without a close frame fails with `TransportFailure.Kind.connectionLost`.
        case connectionLost
        /// The subprotocol the server picks among those offered is the socket's; one not offered
        /// fails the handshake with `WebSocketError.invalidHandshake`.
        case subprotocols
        /// A reader that stops reading stops the reading: the server cannot send 64 MiB ahead.
        case slowReader
        /// A peer that goes silent (no pong, no close): the heartbeat fails the socket with
        /// `WebSocketError.heartbeatMissed` after its own timeout, without waiting out the close
        /// timeout (60 s here) for a close the peer will never answer.
        case silentPeer
    }

    /// The cases this engine is known to fail, each with the documented reason.
    public var exceptions: [Case: String]
    let makeTransport: @Sendable () -> any Transport

    /// Creates the suite for an engine.
    /// - Parameters:
    ///   - exceptions: The cases the engine is known to fail, each with its reason.
    ///   - makeTransport: Makes the engine under test; called once per case.
    public init(exceptions: [Case: String] = [:], makeTransport: @escaping @Sendable () -> any Transport) {
        self.exceptions = exceptions
        self.makeTransport = makeTransport
    }

    /// Runs one case.
    /// - Parameter testCase: The case.
    /// - Throws: A ``WebSocketConformanceFailure`` naming the case and what differed.
    public func check(_ testCase: Case) async throws {
        try await WebSocketConformanceRun(testCase: testCase, transport: makeTransport()).perform()
    }
}

/// A ``WebSocketConformance`` case the engine did not pass: which case, and what differed.
public struct WebSocketConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// The case.
    public let testCase: WebSocketConformance.Case
    /// What the engine did, against what the case expects.
    public let difference: String

    /// For example `invalidUTF8: the server saw close 1000, not 1007`.
    public var description: String { "\(testCase.rawValue): \(difference)" }
}

/// A socket target of a conformance case: any path of a ``WebSocketServer``.
struct ConformanceSocket: TargetType {
    var baseURL: URL
    var path = "/socket"
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}
