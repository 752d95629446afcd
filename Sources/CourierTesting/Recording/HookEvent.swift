import Courier
import Foundation

/// One call into user code during a request, as a ``CallRecorder`` keeps it.
///
/// Compare a whole recorded sequence with the one you expect:
/// ```swift
/// #expect(recorder.events == [
///     .prepare("P1"), .willSend("P1", attempt: 1), .adapt(attempt: 1), .send,
///     .didReceive("P1", .success(200)), .process("P1", .success(200)),
/// ])
/// ```
///
/// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
public enum HookEvent: Hashable, Sendable, CustomStringConvertible {
    /// A plugin's `prepare`.
    case prepare(String)
    /// A plugin's `willSend` for an attempt.
    case willSend(String, attempt: Int)
    /// The interceptor's `adapt` for an attempt.
    case adapt(attempt: Int)
    /// A plugin's `willTransmit` for an attempt (recorded by a ``RecordingPlugin`` made with
    /// `observesAttempts`).
    case willTransmit(String, attempt: Int)
    /// A plugin's `didCompleteAttempt`, with the attempt's outcome (recorded by a
    /// ``RecordingPlugin`` made with `observesAttempts`).
    case didCompleteAttempt(String, attempt: Int, Outcome)
    /// The transport sent a request.
    case send
    /// The interceptor's `retry` after a failed attempt, with the attempt's outcome.
    case retry(attempt: Int, Outcome)
    /// A plugin's `didReceive`.
    case didReceive(String, Outcome)
    /// A plugin's `process`.
    case process(String, Outcome)
    /// The caller received the result.
    case completion(Outcome)
    /// A progress report reached the caller; `final` for the last one, which carries the response.
    case progress(final: Bool)
    /// A plugin's `didFinishStream`, with how the stream ended.
    case didFinishStream(String, StreamEnd)
    /// A plugin's `didRefreshCredential`, with whether a credential was obtained.
    case didRefreshCredential(String, succeeded: Bool)
    /// A plugin's `didObserve` of an open WebSocket: a message sent or received, or its end.
    case webSocket(String, SocketEvent)
    /// A plugin's `didObserve` of an outbox: an entry taken, a wait between tries, or its end.
    case outbox(String, OutboxActivity.Kind)

    /// What a socket did, reduced to what an order test compares (never a message's content).
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
    public enum SocketEvent: Hashable, Sendable, CustomStringConvertible {
        /// A message of this opcode and size was sent.
        case sent(opcode: UInt8, size: Int)
        /// A message of this opcode and size was received.
        case received(opcode: UInt8, size: Int)
        /// The socket closed with this code, by the peer or by this side.
        case closed(UInt16, byPeer: Bool)
        /// The socket stopped with an error.
        case failed
        /// The socket opened again, on this reconnection.
        case reconnected(attempt: Int)

        /// Reduces `kind`.
        /// - Parameter kind: What the socket did.
        public init(_ kind: WebSocketActivity.Kind) {
            switch kind {
            case .sent(let message): self = .sent(opcode: message.opcode, size: message.size)
            case .received(let message): self = .received(opcode: message.opcode, size: message.size)
            case .closed(let code, _, let byPeer): self = .closed(code.rawValue, byPeer: byPeer)
            case .failed: self = .failed
            case .reconnected(let attempt): self = .reconnected(attempt: attempt)
            }
        }

        /// For example `sent(1, 5 bytes)` or `closed(1000 by peer)`.
        public var description: String {
            switch self {
            case .sent(let opcode, let size): "sent(\(opcode), \(size) bytes)"
            case .received(let opcode, let size): "received(\(opcode), \(size) bytes)"
            case .closed(let code, let byPeer): "closed(\(code)\(byPeer ? " by peer" : ""))"
            case .failed: "failed"
            case .reconnected(let attempt): "reconnected#\(attempt)"
            }
        }
    }

    /// How a streamed body ended, reduced to what an order test compares.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
    public enum StreamEnd: Hashable, Sendable, CustomStringConvertible {
        /// The body ended, or the terminator arrived.
        case completed
        /// The reader stopped first.
        case stopped
        /// The transfer failed at this stage.
        case failed(CourierError.Stage)

        /// Reduces `outcome`.
        /// - Parameter outcome: A stream's outcome.
        public init(_ outcome: StreamSummary.Outcome) {
            switch outcome {
            case .completed: self = .completed
            case .stopped: self = .stopped
            case .failed(let error): self = .failed(error.stage)
            }
        }

        /// For example `completed` or `failed(transport)`.
        public var description: String {
            switch self {
            case .completed: "completed"
            case .stopped: "stopped"
            case .failed(let stage): "failed(\(stage.rawValue))"
            }
        }
    }

    /// A result reduced to what an order test compares: the status code of a success, or the
    /// stage of a failure.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
    public enum Outcome: Hashable, Sendable, CustomStringConvertible {
        /// A response with this status code.
        case success(Int)
        /// A failure at this stage.
        case failure(CourierError.Stage)

        /// Reduces `result`.
        /// - Parameter result: A request's result.
        public init(_ result: Result<Response, CourierError>) {
            switch result {
            case .success(let response): self = .success(response.statusCode)
            case .failure(let error): self = .failure(error.stage)
            }
        }

        /// Reduces a failed attempt's error.
        /// - Parameter error: The error.
        public init(_ error: CourierError) {
            self = .failure(error.stage)
        }

        /// For example `success(200)` or `failure(validation)`.
        public var description: String {
            switch self {
            case .success(let code): "success(\(code))"
            case .failure(let stage): "failure(\(stage.rawValue))"
            }
        }
    }

    /// For example `P1.willSend#1` or `retry#2 failure(validation)`.
    public var description: String {
        switch self {
        case .prepare(let name): "\(name).prepare"
        case .willSend(let name, let attempt): "\(name).willSend#\(attempt)"
        case .adapt(let attempt): "adapt#\(attempt)"
        case .willTransmit(let name, let attempt): "\(name).willTransmit#\(attempt)"
        case .didCompleteAttempt(let name, let attempt, let outcome): "\(name).didCompleteAttempt#\(attempt) \(outcome)"
        case .send: "send"
        case .retry(let attempt, let outcome): "retry#\(attempt) \(outcome)"
        case .didReceive(let name, let outcome): "\(name).didReceive \(outcome)"
        case .process(let name, let outcome): "\(name).process \(outcome)"
        case .completion(let outcome): "completion \(outcome)"
        case .progress(let final): final ? "progress (final)" : "progress"
        case .didFinishStream(let name, let end): "\(name).didFinishStream \(end)"
        case .didRefreshCredential(let name, let succeeded):
            "\(name).didRefreshCredential \(succeeded ? "succeeded" : "failed")"
        case .webSocket(let name, let event): "\(name).didObserve \(event)"
        case .outbox(let name, let kind): "\(name).didObserve \(Self.describe(kind))"
        }
    }

    /// For example `enqueued`, `waiting#1` or `ended(delivered)`.
    private static func describe(_ kind: OutboxActivity.Kind) -> String {
        switch kind {
        case .enqueued: "enqueued"
        case .waiting(let attempt, _): "waiting#\(attempt)"
        case .ended(let outcome): "ended(\(outcome.rawValue))"
        }
    }
}
