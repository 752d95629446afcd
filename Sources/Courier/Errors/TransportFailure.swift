import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport failure, classified the same way on every platform.
///
/// URLSession reports the same failure with different codes on Linux and Apple platforms: a body
/// cut mid-transfer is -1005 on Apple and -1 ("transfer closed with N bytes remaining") on Linux;
/// an empty reply is -1011 on Linux. Courier's ``URLSessionTransport`` turns every failure into one
/// of these kinds, keeping the platform's error as ``underlyingError`` (the name
/// ``CourierError/underlyingError`` uses too).
///
/// What a hostile or broken server does, what URLSession on Linux reports (observed with Swift
/// 6.3.1 against a loopback server), and the kind Courier gives it:
///
/// | The server | URLSession on Linux | Kind |
/// |---|---|---|
/// | closes the connection without answering, or mid status line | -1011 "Empty reply from server" | ``Kind/connectionLost`` |
/// | closes before the `Content-Length` it announced | -1 "transfer closed with N bytes remaining to read" | ``Kind/connectionLost`` (from the byte counts) |
/// | closes inside a chunked body | -1 "transfer closed with outstanding read data remaining" | ``Kind/connectionLost`` |
/// | answers with something that is not HTTP (a banner, bytes, a bad status line) | -1002 "Received HTTP/0.9 when not allowed" | ``Kind/badServerResponse`` (an http URL's scheme is supported) |
/// | sends a header line without a colon | -1 "Header without colon" | ``Kind/badServerResponse`` |
/// | sends over 300 KB of headers | -1 "Too large response headers: …" | ``Kind/badServerResponse`` |
/// | sends one header line over 100 KiB | -1 "Out of memory" | ``Kind/badServerResponse`` |
/// | sends an HTTP/2 status line on HTTP/1.1 | -1 "Failed writing header" | ``Kind/badServerResponse`` |
/// | sends an invalid chunk size | -1 "Illegal or missing hexadecimal sequence in chunked-encoding" | ``Kind/badServerResponse`` |
/// | sends a `Content-Encoding: gzip` body that is not gzip | -1 "Error while processing content unencoding: …" | ``Kind/badServerResponse`` |
/// | presents a certificate that does not validate (self-signed, unknown root, expired, another host) | -1 "SSL certificate problem: …" | ``Kind/secureConnectionFailed`` |
/// | resets the connection during the TLS handshake | -1 "Recv failure: Connection reset by peer" | ``Kind/connectionLost`` |
/// | closes the connection during the TLS handshake | -1 "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to …" | ``Kind/connectionLost`` |
/// | refuses the connection | -1004 | ``Kind/cannotConnect`` |
/// | is unreachable (no route) | -1 "Failed to connect to …" | ``Kind/cannotConnect`` |
/// | answers nothing within the timeout | Courier's own clock (URLSession's is whole seconds) | ``Kind/timedOut`` |
/// | redirects more than 20 times | Courier's own count for 307/308, -1007 otherwise | ``Kind/tooManyRedirects`` |
///
/// Codes are read first; a -1 on Linux carries only libcurl's message (FoundationNetworking drops
/// libcurl's code), so its fixed opening is compared, never searched (see the fault tests). A 401
/// with a `WWW-Authenticate` challenge is not a failure: it is returned as a response, with its body.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No response within the time allowed.
        case timedOut
        /// The server refused the connection, or could not be reached.
        case cannotConnect
        /// The connection closed before the whole response arrived.
        case connectionLost
        /// The host name could not be resolved.
        case cannotFindHost
        /// The device has no network connection.
        case notConnectedToInternet
        /// The TLS handshake was refused or the server's certificate did not validate: a chain
        /// that does not lead to a trusted root, an expired certificate or one for another host, a
        /// server's alert (a client certificate it requires or does not trust). Not transient:
        /// ``RetryPolicy`` does not retry it by default. A connection that resets or closes during
        /// the handshake is ``connectionLost``.
        case secureConnectionFailed
        /// The server's answer was not valid HTTP (a malformed status line or headers, headers
        /// over the size limit, a body that cannot be decoded).
        case badServerResponse
        /// Redirects went on past the limit (a redirect loop).
        case tooManyRedirects
        /// The URL cannot be used (unsupported scheme, no host).
        case badURL
        /// Anything else.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// The platform's error (usually a `URLError`).
    public let underlyingError: any Error

    /// The platform's error: the old name of ``underlyingError``.
    @available(*, deprecated, renamed: "underlyingError")
    public var underlying: any Error { underlyingError }

    /// Creates a failure.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - underlyingError: The platform's error.
    public init(kind: Kind, underlyingError: any Error) {
        self.kind = kind
        self.underlyingError = underlyingError
    }

    /// Creates a failure: the old spelling of ``init(kind:underlyingError:)``.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - underlying: The platform's error.
    @available(*, deprecated, renamed: "init(kind:underlyingError:)")
    public init(kind: Kind, underlying: any Error) {
        self.init(kind: kind, underlyingError: underlying)
    }

    /// Classifies a platform error.
    /// - Parameter error: The error a transport threw.
    public init(_ error: any Error) {
        self.init(error, bodyCutShort: false)
    }

    /// Classifies a platform error, knowing whether the response's body ended before the length
    /// its head announced (what a transport knows and the error may not say).
    init(_ error: any Error, bodyCutShort: Bool) {
        self.init(kind: Self.classify(error, bodyCutShort: bodyCutShort), underlyingError: error)
    }

    /// `error` classified when it is a URL-loading error; any other error as it is.
    static func normalized(_ error: any Error) -> any Error {
        if error is TransportFailure { return error }
        return (error as NSError).domain == NSURLErrorDomain ? TransportFailure(error) : error
    }

    /// The `URLError` code of this kind on Apple platforms, for code that matches on codes
    /// (``RetryPolicy/retryableURLErrorCodes``, for one).
    public var code: URLError.Code {
        switch kind {
        case .timedOut: .timedOut
        case .cannotConnect: .cannotConnectToHost
        case .connectionLost: .networkConnectionLost
        case .cannotFindHost: .cannotFindHost
        case .notConnectedToInternet: .notConnectedToInternet
        case .secureConnectionFailed: .secureConnectionFailed
        case .badServerResponse: .badServerResponse
        case .tooManyRedirects: .httpTooManyRedirects
        case .badURL: .badURL
        case .other: (underlyingError as? URLError)?.code ?? .unknown
        }
    }

    /// For example `connectionLost: transfer closed with 97 bytes remaining to read (URLError -1)`,
    /// or, for another engine's error, its own words: `timedOut: HTTPClientError.deadlineExceeded`.
    public var description: String {
        "\(kind.rawValue): \(ErrorText.of(underlyingError))"
    }

    private static func classify(_ error: any Error, bodyCutShort: Bool) -> Kind {
        if let failure = error as? TransportFailure { return failure.kind }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return .other }
        if bodyCutShort { return .connectionLost }
        switch URLError.Code(rawValue: nsError.code) {
        case .timedOut: return .timedOut
        case .cannotConnectToHost: return .cannotConnect
        case .networkConnectionLost, .zeroByteResource: return .connectionLost
        case .badServerResponse:
            #if canImport(FoundationNetworking)
                // On Linux, -1011 is libcurl's "Empty reply from server": the connection closed
                // before a whole status line. On Apple platforms it means a malformed answer.
                return .connectionLost
            #else
                return .badServerResponse
            #endif
        case .cannotFindHost, .dnsLookupFailed: return .cannotFindHost
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed: return .notConnectedToInternet
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return .secureConnectionFailed
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return .tooManyRedirects
        case .badURL: return .badURL
        case .unsupportedURL:
            // For an http or https URL the scheme is supported: on Linux this is libcurl's
            // "Received HTTP/0.9 when not allowed", an answer that is not HTTP at all.
            let scheme = (nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL)?.scheme?.lowercased()
            return scheme == "http" || scheme == "https" ? .badServerResponse : .badURL
        case .cannotDecodeRawData, .cannotDecodeContentData, .cannotParseResponse: return .badServerResponse
        case .unknown: return LibcurlMessage.kind(of: nsError.localizedDescription)
        default: return .other
        }
    }
}
