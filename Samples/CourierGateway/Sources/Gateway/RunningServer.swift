import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// An application started on a port of the system's choosing, for the demo's upstream and tests.
public struct RunningServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `router` on 127.0.0.1 and returns once it listens.
    /// - Parameters:
    ///   - router: The routes.
    ///   - port: The port; 0 lets the system choose.
    ///   - logger: The application's logger.
    public static func start(
        _ router: Router<BasicRequestContext>, port: Int = 0, logger: Logger = Logger(label: "server")
    ) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        guard let bound = await ports.first(where: { _ in true }) else {
            task.cancel()
            throw CancellationError()
        }
        return RunningServer(port: bound, group: group, task: task)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops the server gracefully (requests in flight are answered) and waits for it.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
