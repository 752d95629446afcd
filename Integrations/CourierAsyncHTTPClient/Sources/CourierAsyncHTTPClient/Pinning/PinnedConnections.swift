import Courier
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import X509

/// The connections to pinned hosts that are open between exchanges, and what making one needs,
/// for one transport. A connection is reused only for the host, port and policy (pins, roots,
/// client identity, report-only) it was verified for.
final class PinnedConnections: Sendable {
    /// What a connection was verified for.
    struct Key: Hashable, Sendable {
        let host: String
        let port: Int
        let pins: Set<SPKIPin>
        let roots: TrustPolicy.Roots
        let identity: ClientIdentity?
        let reportsOnly: Bool

        init(host: String, port: Int, policy: TrustPolicy) {
            (self.host, self.port) = (host, port)
            pins = policy.pins(for: host)
            roots = policy.roots
            identity = policy.clientIdentity
            reportsOnly = policy.reportsOnly
        }
    }

    /// An open connection waiting for its next exchange.
    struct Idle: Sendable {
        let channel: any Channel
        /// Its receiver, reached on its event loop.
        let receiver: NIOLoopBoundBox<ResponseReceiver?>
    }

    /// A policy's TLS context and roots, made once: the context's making and the roots' parsing
    /// cost more than a handshake.
    struct Prepared: Sendable {
        let context: NIOSSLContext
        let roots: CertificateStore
    }

    /// The most idle connections kept per key, and the most policies prepared.
    private static let idleLimit = 8
    private static let preparedLimit = 32

    private let idle = NIOLockedValueBox<[Key: [Idle]]>([:])
    private let prepared = NIOLockedValueBox<[Key: Prepared]>([:])

    /// An open connection for `key` that has taken the exchange `makeEnds` makes on its event
    /// loop as its next one, or `nil`.
    func reuse(
        _ key: Key, making makeEnds: @Sendable (any EventLoop) -> ExchangeEnds
    ) async -> (any Channel, ExchangeEnds)? {
        while let candidate = take(key) {
            let ends = makeEnds(candidate.channel.eventLoop)
            let began = try? await candidate.channel.eventLoop.submit {
                candidate.receiver.value?.begin(ends) ?? false
            }.get()
            if began == true { return (candidate.channel, ends) }
            ends.fail(TransportFailure(kind: .connectionLost, underlyingError: ChannelError.alreadyClosed))
            candidate.channel.close(promise: nil)
        }
        return nil
    }

    /// Keeps `connection` for `key`'s next exchange, or closes it when enough are kept.
    func release(_ connection: Idle, for key: Key) {
        let kept = idle.withLockedValue { idle in
            var list = idle[key, default: []].filter { $0.channel.isActive }
            guard list.count < Self.idleLimit else { return false }
            list.append(connection)
            idle[key] = list
            return true
        }
        if !kept { connection.channel.close(promise: nil) }
    }

    /// The TLS context and roots for `key`, made on first use.
    func prepared(for key: Key, policy: TrustPolicy) throws -> Prepared {
        if let known = prepared.withLockedValue({ $0[key] }) { return known }
        let made = Prepared(
            context: try PinnedExchange.tlsContext(for: policy),
            roots: try PinVerifier.roots(of: policy, host: key.host))
        prepared.withLockedValue { prepared in
            if prepared.count >= Self.preparedLimit { prepared.removeAll() }
            prepared[key] = made
        }
        return made
    }

    private func take(_ key: Key) -> Idle? {
        idle.withLockedValue { idle in
            while let last = idle[key]?.popLast() {
                if last.channel.isActive { return last }
            }
            return nil
        }
    }
}
