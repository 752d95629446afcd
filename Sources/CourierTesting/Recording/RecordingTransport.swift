import Courier
import Foundation

/// A transport that records ``HookEvent/send`` in a ``CallRecorder`` and hands the request to
/// another transport, so a recorded sequence shows which attempts reached the wire.
public struct RecordingTransport: Transport {
    /// The transport that really sends.
    public let base: any Transport
    /// Where events go.
    public let recorder: CallRecorder

    /// Creates a recording transport.
    /// - Parameters:
    ///   - base: The transport that really sends.
    ///   - recorder: Where events go.
    public init(_ base: any Transport, recorder: CallRecorder) {
        self.base = base
        self.recorder = recorder
    }

    /// Records ``HookEvent/send`` and sends with the base transport.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        recorder.record(.send)
        return try await base.send(request)
    }

    /// The base transport's capabilities.
    public var capabilities: TransportCapabilities { base.capabilities }
}
