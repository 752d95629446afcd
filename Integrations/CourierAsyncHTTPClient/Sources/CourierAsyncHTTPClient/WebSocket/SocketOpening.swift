import AsyncHTTPClient
import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a socket's opening handshake gave: an upgraded connection, or the server's refusal.
enum SocketUpgradeResult: Sendable {
    case upgraded(HTTPResponseHead, NIOLoopBound<SocketFrameHandler>, SocketSendQueue, SocketInbox)
    case refused(EventLoopFuture<(HTTPResponseHead, ByteBuffer)>)
}

/// A WebSocket's opening handshake on a connection of the transport's own (AsyncHTTPClient has no
/// upgrade API): TCP, TLS with the request's trust policy (its roots, client certificate and pins,
/// as for its requests), the `GET` with the upgrade's fields, then either the 101 (its
/// `Sec-WebSocket-Accept` and subprotocol checked, the connection handed to the upgrade) or the
/// refusal with its head and body. SwiftNIO's typed upgrade handler, which keeps a refusal's
/// answer readable, needs macOS 13 / iOS 16 (the transport declares sockets only there).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension AsyncHTTPClientEngine {
    /// The largest refusal body kept: a handshake's refusal is a short page.
    static let refusalBodyLimit = 1 << 20

    func openWebSocket(_ request: TransportRequest, _ upgrade: WebSocketUpgrade) async throws -> TransportResponse {
        guard let url = request.urlRequest.url, let host = url.host, !host.isEmpty else {
            throw TransportFailure(kind: .badURL, underlyingError: URLError(.badURL))
        }
        let secure = url.scheme?.lowercased() == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let tls = secure ? try SocketTLS(policy: request.trust, host: host, connections: pinned) : nil
        let seconds = request.timeout ?? 60
        let deadline = NIODeadline.now() + .nanoseconds(Int64(max(0.001, seconds) * 1e9))
        let opened = NIOLockedValueBox<(any Channel)?>(nil)
        do {
            return try await withTaskCancellationHandler {
                let channel = try await ClientBootstrap(group: PinnedExchange.socketLoop(of: client))
                    .connectTimeout(max(.milliseconds(1), deadline - .now()))
                    .connect(host: host, port: port).get()
                opened.withLockedValue { $0 = channel }
                if Task.isCancelled { channel.close(promise: nil) }
                let timer = channel.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
                defer { timer.cancel() }
                let head = Self.handshakeHead(request, url: url, host: host, port: port, secure: secure, upgrade)
                let result = try await channel.eventLoop.submit {
                    try Self.pipeline(on: channel, head: head, tls: tls, host: host, upgrade: upgrade)
                }.get().get()
                return try await Self.answer(result, channel: channel, url: url, upgrade: upgrade)
            } onCancel: {
                opened.withLockedValue { $0 }?.close(promise: nil)
            }
        } catch {
            opened.withLockedValue { $0 }?.close(promise: nil)
            if Task.isCancelled { throw CancellationError() }
            if let failure = tls?.verifier?.failure { throw failure }
            if NIODeadline.now() >= deadline {
                throw TransportFailure(kind: .timedOut, underlyingError: error)
            }
            throw Self.mapped(error)
        }
    }

    /// The response of the handshake: the 101 (its connection accepted) or the refusal.
    private static func answer(
        _ result: SocketUpgradeResult, channel: any Channel, url: URL, upgrade: WebSocketUpgrade
    ) async throws -> TransportResponse {
        switch result {
        case .upgraded(let head, let handler, let sends, let inbox):
            let fields = Self.fields(head.headers)
            if let chosen = fields["Sec-WebSocket-Protocol"], !upgrade.subprotocols.contains(chosen) {
                channel.close(promise: nil)
                throw WebSocketError.invalidHandshake("the server chose a subprotocol that was not offered")
            }
            let connection = NIOWebSocketConnection(
                channel: channel, handler: handler, sends: sends, closeTimeout: upgrade.closeTimeout,
                inbox: inbox)
            upgrade.accept(connection)
            return TransportResponse(statusCode: 101, headerFields: fields, url: url, data: Data())
        case .refused(let collected):
            let (head, body) = try await collected.get()
            channel.close(promise: nil)
            return TransportResponse(
                statusCode: Int(head.status.code), headerFields: Self.fields(head.headers), url: url,
                data: Data(body.readableBytesView))
        }
    }

    /// The request head: the request's fields (adapted, checked, framing removed), `Host`, and
    /// the subprotocols offered; the upgrader adds its own.
    private static func handshakeHead(
        _ request: TransportRequest, url: URL, host: String, port: Int, secure: Bool, _ upgrade: WebSocketUpgrade
    ) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        let standard = port == (secure ? 443 : 80)
        let hostText = host.contains(":") ? "[\(host)]" : host
        headers.add(name: "Host", value: standard ? hostText : "\(hostText):\(port)")
        for field in request.headerFields where !WebSocketUpgrade.engineFields.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        if !upgrade.subprotocols.isEmpty {
            headers.add(name: "Sec-WebSocket-Protocol", value: upgrade.subprotocols.joined(separator: ", "))
        }
        if let compression = upgrade.compression {
            headers.add(name: "Sec-WebSocket-Extensions", value: SocketDeflate.offer(compression))
        }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
    }

    /// The connection's handlers, in one turn of the event loop: TLS, HTTP/1.1 and the upgrade.
    private static func pipeline(
        on channel: any Channel, head: HTTPRequestHead, tls: SocketTLS?, host: String, upgrade: WebSocketUpgrade
    ) throws -> EventLoopFuture<SocketUpgradeResult> {
        let operations = channel.pipeline.syncOperations
        if let tls { try operations.addHandler(try tls.handler()) }
        let encoder = HTTPRequestEncoder()
        let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
        try operations.addHandlers([encoder, decoder])
        let limit = upgrade.maximumMessageSize
        // A compressed frame may be a little larger than the message it inflates to.
        let frameLimit = upgrade.compression == nil ? limit : SocketFrameHandler.compressedLimit(limit)
        let upgrader = NIOTypedWebSocketClientUpgrader<SocketUpgradeResult>(
            maxFrameSize: max(125, min(frameLimit, Int(UInt32.max))), enableAutomaticErrorHandling: true
        ) { channel, response in
            channel.eventLoop.makeCompletedFuture {
                let agreed = try SocketDeflate.agreement(
                    response.headers["Sec-WebSocket-Extensions"], offered: upgrade.compression)
                let inbox = SocketInbox(inflater: try agreed.map { try SocketInflater($0, limit: limit) })
                let handler = try SocketFrameHandler(maximumMessageSize: limit, agreement: agreed, inbox: inbox)
                try channel.pipeline.syncOperations.addHandler(handler)
                // From now on the network is read only as the socket's reader asks. A connection
                // the server closed right after its 101 cannot take options: its frames already
                // read are delivered, then the end.
                if channel.isActive { try channel.syncOptions?.setOption(.autoRead, value: false) }
                return .upgraded(response, NIOLoopBound(handler, eventLoop: channel.eventLoop), handler.sends, inbox)
            }
        }
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<SocketUpgradeResult>(
            upgradeRequestHead: head, upgraders: [upgrader]
        ) { channel in
            channel.eventLoop.makeCompletedFuture {
                let collector = RefusalCollector(limit: refusalBodyLimit, eventLoop: channel.eventLoop)
                try channel.pipeline.syncOperations.addHandler(collector)
                return .refused(collector.result)
            }
        }
        let handler = NIOTypedHTTPClientUpgradeHandler(
            httpHandlers: [encoder, decoder], upgradeConfiguration: configuration)
        try operations.addHandler(handler)
        return handler.upgradeResultFuture
    }

    private static func fields(_ headers: HTTPHeaders) -> HeaderFields {
        HeaderFields(headers.map { HeaderFields.Field(name: $0.name, value: $0.value) })
    }

    /// A handshake's error as the transport reports errors.
    private static func mapped(_ error: any Error) -> any Error {
        if let socket = error as? WebSocketError { return socket }
        switch error as? NIOHTTPClientUpgradeError {
        case .upgraderDeniedUpgrade?:
            return WebSocketError.invalidHandshake("its Sec-WebSocket-Accept does not answer the key sent")
        case .responseProtocolNotFound?:
            return WebSocketError.invalidHandshake("its Upgrade field does not name websocket")
        default: return AsyncHTTPClientFailure.map(error)
        }
    }
}
