import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// AsyncHTTPClient's and SwiftNIO's errors as the `TransportFailure` kinds URLSession's errors
/// have, so that a user's error handling works unchanged when they switch engines.
///
/// | AsyncHTTPClient / SwiftNIO | Kind |
/// |---|---|
/// | connection refused or reset before connecting (`NIOConnectionError`, `IOError` ECONNREFUSED) | `cannotConnect` |
/// | name resolution failed | `cannotFindHost` |
/// | `remoteConnectionClosed`, a body cut short, `uncleanShutdown` | `connectionLost` |
/// | `deadlineExceeded`, `connectTimeout`, `readTimeout`, `writeTimeout`, `tlsHandshakeTimeout` | `timedOut` |
/// | an HTTP parser error (not HTTP, oversize headers, bad framing) | `badServerResponse` |
/// | the connection closed before a whole response (`HTTPParserError.invalidEOFState`) | `connectionLost` |
/// | the connection closed during the TLS handshake (`eofDuringHandshake`), or without TLS's closing (`uncleanShutdown`) | `connectionLost` |
/// | `NIOSSLError` and other TLS failures: a chain that does not validate, the server's alert | `secureConnectionFailed` |
/// | `invalidURL`, `emptyHost`, `emptyScheme`, `unsupportedScheme` | `badURL` |
/// | `redirectLimitReached`, `redirectCycleDetected` | `tooManyRedirects` |
/// | `cancelled`, `requestStreamCancelled`, a cancelled task | `CancellationError` |
enum AsyncHTTPClientFailure {
    /// `error` as Courier reports it: cancellations as `CancellationError`, Courier's own errors
    /// as they are, everything else as a `TransportFailure`.
    static func map(_ error: any Error, bodyCutShort: Bool = false) -> any Error {
        switch error {
        case is CancellationError, is TransportFailure, is TransferError, is TrustFailure,
            is AsyncHTTPClientTransportError:
            return error
        case let client as HTTPClientError:
            if client == .cancelled || client == .requestStreamCancelled { return CancellationError() }
            return TransportFailure(kind: kind(of: client, bodyCutShort: bodyCutShort), underlyingError: client)
        case let parser as HTTPParserError:
            // The connection closed before a whole response: what URLSession calls a lost connection.
            let lost = bodyCutShort || parser == .invalidEOFState
            return TransportFailure(kind: lost ? .connectionLost : .badServerResponse, underlyingError: error)
        default:
            return TransportFailure(kind: otherKind(of: error, bodyCutShort: bodyCutShort), underlyingError: error)
        }
    }

    private static func kind(of error: HTTPClientError, bodyCutShort: Bool) -> TransportFailure.Kind {
        switch error {
        case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            .timedOut
        case .remoteConnectionClosed, .uncleanShutdown: .connectionLost
        case .invalidURL, .emptyHost, .emptyScheme: .badURL
        case .redirectLimitReached, .redirectCycleDetected: .tooManyRedirects
        case .invalidProxyResponse, .identityCodingIncorrectlyPresent: .badServerResponse
        default:
            "\(error)".contains("unsupportedScheme") ? .badURL : bodyCutShort ? .connectionLost : .other
        }
    }

    /// SwiftNIO's connection, name resolution and TLS errors.
    private static func otherKind(of error: any Error, bodyCutShort: Bool) -> TransportFailure.Kind {
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH: return .cannotConnect
            case ECONNRESET, EPIPE: return .connectionLost
            case ETIMEDOUT: return .timedOut
            default: return .other
            }
        }
        if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: return .timedOut
            case .ioOnClosedChannel, .outputClosed, .eof, .alreadyClosed: return .connectionLost
            default: return .other
            }
        }
        if let connection = error as? NIOConnectionError {
            return connection.connectionErrors.isEmpty ? .cannotFindHost : .cannotConnect
        }
        if let tls = error as? NIOSSLError, closedWithoutTLS(tls) { return .connectionLost }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return .secureConnectionFailed
        }
        return bodyCutShort ? .connectionLost : .other
    }

    /// Whether `error` is a connection that closed under TLS rather than a TLS refusal: a network
    /// event, which a later attempt may not meet (``RetryPolicy`` retries it as a lost connection).
    private static func closedWithoutTLS(_ error: NIOSSLError) -> Bool {
        switch error {
        case .uncleanShutdown: true
        case .handshakeFailed(.sslError(let stack)):
            stack == [.eofDuringHandshake] || stack == [.eofDuringAdditionalCertficiateChainValidation]
        default: false
        }
    }
}
