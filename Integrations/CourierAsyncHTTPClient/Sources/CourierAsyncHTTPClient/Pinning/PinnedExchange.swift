import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One exchange with a pinned host, on a connection of Courier's own made with SwiftNIO:
/// AsyncHTTPClient builds its TLS handlers itself and offers no verification callback
/// (swift-server/async-http-client#285), so a request whose host has pins goes this way instead.
/// HTTP/1.1 on the client's event loops, gzip and deflate decoded (at most 25 times the bytes
/// received, as AsyncHTTPClient's default configuration); the server's chain is checked by a
/// ``PinVerifier`` during the handshake, and nothing is written before it passed. A connection is
/// kept for the next exchange with the same host and policy (``PinnedConnections``).
struct PinnedExchange: Sendable {
    let client: HTTPClient
    let connections: PinnedConnections

    /// Sends `request` to `url` and waits for the response head; the body follows as it is read.
    /// - Throws: ``TrustFailure`` when the pins refused the server, a `TransportFailure` of kind
    ///   `secureConnectionFailed` when its chain is not trusted, or SwiftNIO's errors.
    func execute(
        _ request: TransportRequest, to url: URL, policy: TrustPolicy, deadline: NIODeadline
    ) async throws -> HTTPClientResponse {
        guard let host = url.host else { throw TransportFailure(kind: .badURL, underlyingError: URLError(.badURL)) }
        let key = PinnedConnections.Key(host: host, port: url.port ?? 443, policy: policy)
        let (channel, ends, verifier) = try await connection(for: key, policy: policy, deadline: deadline)
        return try await withTaskCancellationHandler {
            do {
                try await ends.handshake.futureResult.get()
                try await send(request, to: url, on: channel, head: ends.head.futureResult)
                let head = try await ends.head.futureResult.get()
                return HTTPClientResponse(
                    version: head.version, status: head.status, headers: head.headers, body: .stream(ends.body))
            } catch {
                ends.abort(error)
                if Task.isCancelled { throw CancellationError() }
                throw verifier?.failure ?? error
            }
        } onCancel: {
            ends.abort(CancellationError())
        }
    }

    /// A kept connection for `key`, or a new one (with the verifier of its handshake), and the
    /// exchange's ends on the connection's event loop.
    private func connection(
        for key: PinnedConnections.Key, policy: TrustPolicy, deadline: NIODeadline
    ) async throws -> (any Channel, ExchangeEnds, PinVerifier?) {
        let connections = connections
        let makeEnds: @Sendable (any EventLoop) -> ExchangeEnds = { loop in
            ExchangeEnds(on: loop) { connections.release($0, for: key) }
        }
        if let (kept, ends) = await connections.reuse(key, making: makeEnds) { return (kept, ends, nil) }
        let prepared = try connections.prepared(for: key, policy: policy)
        let verifier = PinVerifier(host: key.host, policy: policy, roots: prepared.roots)
        let loop = Self.socketLoop(of: client)
        let ends = makeEnds(loop)
        do {
            let channel = try await ClientBootstrap(group: loop)
                .connectTimeout(Self.connectTimeout(before: deadline))
                .connect(host: key.host, port: key.port).get()
            // The pipeline is made on the connection that won, never in the channel initializer:
            // a host with several addresses may be tried on several connections at once, and the
            // losers must not take part in the exchange (nor fail it as they close).
            do {
                try await channel.eventLoop.submit {
                    try Self.pipeline(on: channel, context: prepared.context, verifier: verifier, ends: ends)
                }.get()
            } catch {
                channel.close(promise: nil)
                throw error
            }
            return (channel, ends, verifier)
        } catch {
            ends.fail(error)
            throw verifier.failure ?? error
        }
    }

    /// An event loop of the client's group that can run a socket connection, or one of SwiftNIO's
    /// shared group: on Apple platforms AsyncHTTPClient's default group is Network.framework's
    /// (NIOTransportServices), whose loops a `ClientBootstrap` cannot use.
    static func socketLoop(of client: HTTPClient) -> any EventLoop {
        let candidate = client.eventLoopGroup.next()
        return ClientBootstrap(validatingGroup: candidate) == nil
            ? MultiThreadedEventLoopGroup.singleton.next() : candidate
    }

    /// The time a connection may take: what is left of the exchange's deadline, at most 90 s (the
    /// connect timeout of AsyncHTTPClient's default configuration).
    private static func connectTimeout(before deadline: NIODeadline) -> TimeAmount {
        let left = deadline - .now()
        return max(.milliseconds(1), min(left, .seconds(90)))
    }

    /// The connection's pipeline: TLS with the verifier (the handshake starts as it is added),
    /// HTTP/1.1, decompression, then the receiver. On the channel's event loop.
    private static func pipeline(
        on channel: any Channel, context: NIOSSLContext, verifier: PinVerifier, ends: ExchangeEnds
    ) throws {
        let hostname = IPAddressText.isAddress(verifier.host) ? nil : verifier.host
        let tls = try NIOSSLClientHandler(
            context: context, serverHostname: hostname, customVerificationCallbackWithMetadata: verifier.verify)
        let operations = channel.pipeline.syncOperations
        let home = NIOLoopBoundBox<ResponseReceiver?>.makeEmptyBox(eventLoop: channel.eventLoop)
        let receiver = ResponseReceiver(ends, home: home)
        home.value = receiver
        ends.demand.receiver.value = receiver
        // All in one turn of the event loop: nothing the server answers arrives before the
        // receiver is in place.
        try operations.addHandler(tls)
        try operations.addHTTPClientHandlers()
        try operations.addHandler(NIOHTTPResponseDecompressor(limit: .ratio(25)))
        try operations.addHandler(receiver)
        // A connection closed before its handlers were added told no one: it would never answer.
        guard channel.isActive else {
            throw TransportFailure(kind: .connectionLost, underlyingError: ChannelError.alreadyClosed)
        }
    }

    /// The TLS configuration of a pinned connection: the policy's client identity, HTTP/1.1
    /// offered alone. Its roots are the verifier's.
    static func tlsContext(for policy: TrustPolicy) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.applicationProtocols = ["http/1.1"]
        // The verifier validates the chain; loading the system's roots into the context (a few
        // milliseconds of parsing on Linux) would buy nothing.
        tls.trustRoots = .certificates([])
        // A connection is closed when it is of no more use (a reader that stopped, an idle one):
        // the server's own closing message is not worth waiting for.
        tls.shutdownTimeout = .milliseconds(250)
        if let identity = policy.clientIdentity { try TrustConfiguration.apply(identity, to: &tls) }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw TrustFailure.unusableCertificate("the TLS context cannot be made (\(error))")
        }
    }

    /// Writes the request head and body. A write that fails after the server answered (a server
    /// that refuses a large body early and closes) leaves the answer to be read; one that fails
    /// because the server ended the connection fails with the server's reason. Under TLS 1.3 the
    /// client's side of the handshake ends before the server checks the client's certificate, so
    /// a refusal (its `certificate required` or `unknown CA` alert) arrives while the request is
    /// written: the alert is the failure, not the write it cut short (which would read as a lost
    /// connection, and be sent again).
    private func send(
        _ request: TransportRequest, to url: URL, on channel: any Channel, head: EventLoopFuture<HTTPResponseHead>
    ) async throws {
        let upload = try Upload(request)
        let start = HTTPClientRequestPart.head(Self.head(of: request, to: url, upload))
        do {
            // A body in memory goes with its head in one flush: the server cannot answer before
            // the request is written whole, and the connection can be kept.
            switch upload.source {
            case .none:
                channel.write(start, promise: nil)
            case .bytes(let data):
                channel.write(start, promise: nil)
                channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(data: data))), promise: nil)
            case .chunks(let chunks, _):
                try await channel.writeAndFlush(start).get()
                var source = chunks.makeAsyncIterator()
                while let chunk = try await Self.next(of: &source) {
                    try await channel.writeAndFlush(HTTPClientRequestPart.body(.byteBuffer(chunk))).get()
                }
            }
            try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        } catch let unreadable as UnreadableBody {
            // The server waits for the rest of a body that will not come: the exchange ends now.
            throw unreadable.error
        } catch {
            // The connection is closed when a write fails: the head's promise is settled, with the
            // answer, or with what the receiver learned (the server's alert, a lost connection).
            do {
                _ = try await head.get()
            } catch let reason {
                throw reason
            }
        }
    }

    /// The body's next chunk; a failure to read it is an ``UnreadableBody``, told apart from the
    /// connection's failures.
    private static func next(of source: inout UploadChunks.AsyncIterator) async throws -> ByteBuffer? {
        do {
            return try await source.next()
        } catch {
            throw UnreadableBody(error: error)
        }
    }

    /// A request body that could not be read while it was sent.
    private struct UnreadableBody: Error {
        let error: any Error
    }

    /// The request head: the target's fields (repeated names kept apart), `Host`, and the body's
    /// framing.
    private static func head(of request: TransportRequest, to url: URL, _ upload: Upload) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        for field in request.headerFields { headers.add(name: field.name, value: field.value) }
        if !headers.contains(name: "host") {
            let host = url.host.map { IPAddressText.isAddress($0) && $0.contains(":") ? "[\($0)]" : $0 } ?? ""
            headers.add(name: "host", value: url.port.map { "\(host):\($0)" } ?? host)
        }
        headers.remove(name: "content-length")
        headers.remove(name: "transfer-encoding")
        let method = NIOHTTP1.HTTPMethod(rawValue: request.urlRequest.httpMethod ?? "GET")
        switch upload.source {
        case .none:
            if method == .POST || method == .PUT || method == .PATCH { headers.add(name: "content-length", value: "0") }
        case .bytes(let data): headers.add(name: "content-length", value: String(data.count))
        case .chunks(_, let length):
            if let length {
                headers.add(name: "content-length", value: String(length))
            } else {
                headers.add(name: "transfer-encoding", value: "chunked")
            }
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        return HTTPRequestHead(version: .http1_1, method: method, uri: target, headers: headers)
    }
}
