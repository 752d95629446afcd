import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``RetryPolicy`` and TLS failures, through a provider and an engine that counts its attempts: a
/// certificate that does not validate, or a handshake the server refused, is not transient; a
/// connection that resets or closes during the handshake is.
@Suite("RetryPolicy and TLS failures")
struct RetryPolicyTLSTests {
    /// Fails every attempt with its error, and counts them.
    final class FailingEngine: Transport {
        let attempts = Locked(0)
        let error: any Error

        init(_ error: any Error) {
            self.error = error
        }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            attempts.withLock { $0 += 1 }
            throw error
        }
    }

    /// A failure as URLSession reports it: a code, and on Linux libcurl's message for -1.
    static func urlError(_ code: URLError.Code, _ message: String = "TLS") -> TransportFailure {
        TransportFailure(
            NSError(
                domain: NSURLErrorDomain, code: code.rawValue,
                userInfo: [
                    NSLocalizedDescriptionKey: message,
                    NSURLErrorFailingURLErrorKey: URL(string: "https://api.example.com/item")!,
                ]))
    }

    /// Every way an engine reports a chain that does not validate or a refused handshake.
    static let validationFailures: [TransportFailure] = [
        TransportFailure(kind: .secureConnectionFailed, underlyingError: URLError(.secureConnectionFailed)),
        urlError(.secureConnectionFailed), urlError(.serverCertificateHasBadDate),
        urlError(.serverCertificateNotYetValid), urlError(.serverCertificateUntrusted),
        urlError(.serverCertificateHasUnknownRoot), urlError(.clientCertificateRejected),
        urlError(.clientCertificateRequired),
        // URLSession on Linux: libcurl's messages under -1 (curl 7.88 with OpenSSL 3, observed).
        urlError(.unknown, "SSL certificate problem: self-signed certificate"),
        urlError(.unknown, "SSL certificate problem: unable to get local issuer certificate"),
        urlError(.unknown, "SSL: no alternative certificate subject name matches target host name '127.0.0.1'"),
        urlError(
            .unknown,
            "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0"),
    ]

    private static func attempts(after error: any Error) async -> Int {
        let engine = FailingEngine(error)
        let provider = Provider<OrderTarget>(
            transport: engine, interceptor: .retryPolicy(exponentialBackoffScale: 0))
        _ = try? await provider.request(OrderTarget(baseURL: URL(string: "https://api.example.com")!))
        return engine.attempts.value
    }

    @Test("a certificate that does not validate, or a refused handshake, is tried once", arguments: validationFailures)
    func validationFailureIsNotRetried(failure: TransportFailure) async {
        #if canImport(FoundationNetworking)
            #expect(failure.kind == .secureConnectionFailed, "\(failure)")
        #endif
        #expect(await Self.attempts(after: failure) == 1, "\(failure)")
    }

    @Test("a connection reset or closed during the handshake is a lost connection, retried")
    func handshakeInterruptedIsRetried() async {
        // What curl 7.88 with OpenSSL 3 says against a loopback server that resets the connection
        // after the ClientHello, or closes it.
        let interrupted = [
            Self.urlError(.unknown, "Recv failure: Connection reset by peer"),
            Self.urlError(.unknown, "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:39871 "),
        ]
        for failure in interrupted {
            #if canImport(FoundationNetworking)
                #expect(failure.kind == .connectionLost, "\(failure)")
                #expect(await Self.attempts(after: failure) == 3, "\(failure)")
            #else
                // Apple platforms report no libcurl message: -1 is `other` there, never retried.
                #expect(failure.kind == .other, "\(failure)")
            #endif
        }
        let lost = TransportFailure(kind: .connectionLost, underlyingError: URLError(.networkConnectionLost))
        #expect(await Self.attempts(after: lost) == 3)
    }

    @Test("retrying TLS failures stays possible, by adding the code")
    func optIn() async {
        let engine = FailingEngine(Self.validationFailures[0])
        var policy = RetryPolicy(exponentialBackoffScale: 0)
        policy.retryableURLErrorCodes.insert(.secureConnectionFailed)
        let provider = Provider<OrderTarget>(transport: engine, interceptor: policy)
        _ = try? await provider.request(OrderTarget(baseURL: URL(string: "https://api.example.com")!))
        #expect(engine.attempts.value == 3)
    }
}
