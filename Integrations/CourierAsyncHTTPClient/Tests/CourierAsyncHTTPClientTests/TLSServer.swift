import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A TLS server on 127.0.0.1 that offers HTTP/2 and HTTP/1.1 (ALPN) and answers every request
/// with the HTTP version it arrived in (`HTTP/2.0` or `HTTP/1.1`), optionally asking the client
/// for a certificate signed by the test authority.
final class TLSServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let accepted = NIOLockedValueBox(0)

    /// How many connections the server has accepted.
    var connectionCount: Int { accepted.withLockedValue { $0 } }

    init(authority: TestCertificateAuthority, requireClientCertificate: Bool = false) throws {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(authority.serverCertificate.path).map {
                .certificate($0)
            },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: authority.serverKey.path, format: .pem)))
        tls.applicationProtocols = ["h2", "http/1.1"]
        if requireClientCertificate {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .file(authority.caCertificate.path)
        }
        let context = try NIOSSLContext(configuration: tls)
        let accepted = accepted
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
                                        HTTP2FramePayloadToHTTP1ServerCodec(), VersionEcho(),
                                    ])
                                }
                            }.map { _ in }
                        },
                        http1ChannelConfigurator: { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                                try channel.pipeline.syncOperations.addHandler(VersionEcho())
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

/// Answers each request with the HTTP version it arrived in.
private final class VersionEcho: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var version = HTTPVersion.http1_1

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): version = head.version
        case .body: break
        case .end:
            let body = "HTTP/\(version.major).\(version.minor)"
            var head = HTTPResponseHead(version: version, status: .ok)
            head.headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
