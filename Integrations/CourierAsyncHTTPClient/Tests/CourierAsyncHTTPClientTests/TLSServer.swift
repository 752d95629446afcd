import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A TLS server on 127.0.0.1 that offers HTTP/2 and HTTP/1.1 (ALPN) and answers a request for `/`
/// with the HTTP version it arrived in (`HTTP/2.0` or `HTTP/1.1`), optionally asking the client
/// for a certificate signed by the test authority. Other paths: `/echo` answers the request's
/// body, `/bytes/N` N bytes, `/redirect` a 302 to the request's `X-To` field, `/close` closes the
/// connection after its answer; `/stall` is never answered.
final class TLSServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let accepted = NIOLockedValueBox(0)
    private let answered = NIOLockedValueBox(0)

    /// How many connections the server has accepted.
    var connectionCount: Int { accepted.withLockedValue { $0 } }
    /// How many requests the server has read whole.
    var requestCount: Int { answered.withLockedValue { $0 } }

    /// A server presenting `chain` (PEM files, leaf first; the authority's server certificate by
    /// default) with `key`.
    init(
        authority: TestCertificateAuthority, chain: [URL]? = nil, key: URL? = nil,
        requireClientCertificate: Bool = false
    ) throws {
        var certificates: [NIOSSLCertificate] = []
        for file in chain ?? [authority.serverCertificate] {
            certificates += try NIOSSLCertificate.fromPEMFile(file.path)
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: (key ?? authority.serverKey).path, format: .pem)))
        tls.applicationProtocols = ["h2", "http/1.1"]
        if requireClientCertificate {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .file(authority.caCertificate.path)
        }
        let context = try NIOSSLContext(configuration: tls)
        let (accepted, answered) = (accepted, answered)
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.withLockedValue { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2SecureUpgrade(
                        h2ChannelConfigurator: { channel in
                            channel.configureHTTP2Pipeline(mode: .server) { stream in
                                stream.eventLoop.makeCompletedFuture {
                                    try stream.pipeline.syncOperations.addHandlers([
                                        HTTP2FramePayloadToHTTP1ServerCodec(), VersionEcho(answered),
                                    ])
                                }
                            }.map { _ in }
                        },
                        http1ChannelConfigurator: { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                                try channel.pipeline.syncOperations.addHandler(VersionEcho(answered))
                            }
                        })
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }

    func stop() {
        try? channel.close().wait()
    }
}

/// Answers `/` with the HTTP version the request arrived in, `/echo` with its body, `/bytes/N`
/// with N bytes, `/redirect` with a 302 to its `X-To` field, `/close` with `Connection: close`;
/// leaves `/stall` unanswered.
private final class VersionEcho: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var request: HTTPRequestHead?
    private var received = ByteBuffer()
    private let answered: NIOLockedValueBox<Int>

    init(_ answered: NIOLockedValueBox<Int>) {
        self.answered = answered
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            received.clear()
        case .body(var bytes): received.writeBuffer(&bytes)
        case .end:
            guard let request else { return }
            answered.withLockedValue { $0 += 1 }
            if request.uri == "/stall" { return }
            let version = request.version
            var head = HTTPResponseHead(version: version, status: .ok)
            var body = ByteBuffer(string: "HTTP/\(version.major).\(version.minor)")
            if request.uri == "/echo" {
                body = received
            } else if request.uri.hasPrefix("/bytes/"), let count = Int(request.uri.dropFirst(7)) {
                body = ByteBuffer(repeating: UInt8(ascii: "x"), count: count)
            } else if request.uri == "/close" {
                head.headers.add(name: "Connection", value: "close")
            } else if request.uri == "/redirect" {
                head.status = .found
                head.headers.add(name: "Location", value: request.headers.first(name: "x-to") ?? "/")
                body = ByteBuffer()
            }
            head.headers.add(name: "Content-Length", value: "\(body.readableBytes)")
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
