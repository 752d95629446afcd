import Courier
import Foundation

/// A real HTTP/1.1 server on 127.0.0.1, on a port the system chooses, for integration tests,
/// samples and demos: no other package, no internet.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     request.path == "/zen" ? .text("Keep it logically awesome.") : ServerReply(status: 404)
/// }
/// defer { server.stop() }
/// // point a target's baseURL at server.baseURL
/// ```
/// The handler runs on the connection's own thread and may block (to hold a response back in a
/// cancellation test, for example). Every request received is kept in ``requests``.
/// Connections are kept alive between requests, as URLSession expects. The server stops when
/// ``stop()`` is called or when it is released.
public final class LoopbackServer: Sendable {
    /// Handles a request and returns the reply.
    public typealias Handler = @Sendable (ServerRequest) -> ServerReply

    /// The port the server listens on.
    public let port: UInt16
    private let core: Core

    /// Starts a server that answers every request with `handler`.
    /// - Parameter handler: Returns the reply to a request.
    /// - Throws: A socket error when no loopback port can be opened.
    public convenience init(handler: @escaping Handler) throws {
        try self.init(port: 0, handler: handler)
    }

    /// Starts a server on `port`: to bring a server back on the port of one that was stopped, as
    /// a restarted process would be.
    /// ```swift
    /// let server = try LoopbackServer(handler: handler)
    /// server.stop()                                   // clients are cut off, then refused
    /// let back = try LoopbackServer(port: server.port, handler: handler)
    /// ```
    /// - Parameters:
    ///   - port: The port; 0 lets the system choose one.
    ///   - handler: Returns the reply to a request.
    /// - Throws: A socket error when the port cannot be opened (another server holds it).
    public init(port: UInt16, handler: @escaping Handler) throws {
        let (listener, port) = try Socket.listenOnLoopback(port: port)
        self.port = port
        self.core = Core(listener: listener, handler: handler)
        let core = self.core
        let thread = Thread { core.acceptLoop() }
        thread.name = "Courier.LoopbackServer.accept"
        thread.start()
    }

    deinit {
        core.stop()
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Every request received so far, in order.
    public var requests: [ServerRequest] {
        core.requests
    }

    /// How many client connections are open right now: 0 once a client closed every connection
    /// it had (after a transfer it cancelled, say).
    public var openConnections: Int {
        core.openConnections
    }

    /// Stops listening and closes every connection. Calling it again does nothing.
    public func stop() {
        core.stop()
    }

    /// What the server's threads share: the listening socket, the handler and the state. Kept
    /// apart from ``LoopbackServer`` so that the threads do not keep the server alive.
    private final class Core: Sendable {
        private struct State {
            var requests: [ServerRequest] = []
            var connections: Set<Int32> = []
            var stopped = false
            /// Whether the listening socket is still open. Every `close` and `shutdown` of the
            /// server's descriptors happens under the lock, after checking that it is still open:
            /// a descriptor closed by one thread is reused by the next socket the process opens
            /// (another test's server), which a late `shutdown` would cut.
            var listening = true
        }

        private let listener: Int32
        private let handler: Handler
        private let state = Locked(State())

        init(listener: Int32, handler: @escaping Handler) {
            self.listener = listener
            self.handler = handler
        }

        var requests: [ServerRequest] {
            state.withLock { $0.requests }
        }

        var openConnections: Int {
            state.withLock { $0.connections.count }
        }

        func stop() {
            state.withLock { state in
                guard !state.stopped else { return }
                state.stopped = true
                if state.listening { Socket.shutdown(listener) }
                for connection in state.connections { Socket.shutdown(connection) }
            }
        }

        private var isStopped: Bool {
            state.withLock { $0.stopped }
        }

        func acceptLoop() {
            while !isStopped {
                guard Socket.waitReadable(listener, milliseconds: 100) else { continue }
                guard let client = Socket.accept(listener) else { break }
                let accepted = state.withLock { state in
                    guard !state.stopped else { return false }
                    state.connections.insert(client)
                    return true
                }
                guard accepted else {
                    Socket.close(client)
                    break
                }
                let thread = Thread { self.serve(client) }
                thread.name = "Courier.LoopbackServer.connection"
                thread.start()
            }
            state.withLock { state in
                state.listening = false
                Socket.close(listener)
            }
        }

        private func serve(_ client: Int32) {
            let connection = HTTPConnection(descriptor: client) { request in
                self.state.withLock { $0.requests.append(request) }
                return self.handler(request)
            }
            connection.serve()
            state.withLock { state in
                state.connections.remove(client)
                Socket.close(client)
            }
        }
    }
}
