import Courier
import Foundation

/// A port on 127.0.0.1 that refuses connections, reserved for as long as this value lives: a
/// bound socket that never listens. Tests that need a refused connection use it instead of a
/// stopped server's port, which another server of a parallel test run may take meanwhile.
///
/// ```swift
/// let closed = try ClosedPort()
/// let url = closed.baseURL   // every connection to it is refused
/// ```
public final class ClosedPort: Sendable {
    /// The port.
    public let port: UInt16
    private let descriptor: Locked<Int32?>

    /// Reserves a port the system chooses.
    /// - Throws: A socket error when no port can be had.
    public init() throws {
        let (socket, port) = try Socket.bindLoopback()
        self.port = port
        descriptor = Locked(socket)
    }

    deinit {
        release()
    }

    /// Frees the port now, for a server to start on it (`LoopbackServer(port:handler:)`).
    public func release() {
        if let socket = descriptor.withLock({ $0.take() }) { Socket.close(socket) }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }
}
