import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport failure, classified the same way on every platform.
///
/// URLSession reports the same failure with different codes on Linux and Apple platforms: a body
/// cut mid-transfer is -1005 on Apple and -1 ("transfer closed with N bytes remaining") on Linux;
/// an empty reply is -1011 on Linux. Courier's ``URLSessionTransport`` turns every failure into one
/// of these kinds, keeping the platform's error as ``underlying``.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
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
        /// The TLS handshake or the server's certificate failed.
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
    public let underlying: any Error

    /// Creates a failure.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - underlying: The platform's error.
    public init(kind: Kind, underlying: any Error) {
        self.kind = kind
        self.underlying = underlying
    }

    /// Classifies a platform error.
    /// - Parameter error: The error a transport threw.
    public init(_ error: any Error) {
        self.init(kind: Self.classify(error), underlying: error)
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
        case .other: (underlying as? URLError)?.code ?? .unknown
        }
    }

    /// For example `connectionLost: transfer closed with 97 bytes remaining to read (URLError -1)`.
    public var description: String {
        let nsError = underlying as NSError
        return
            "\(kind.rawValue): \(nsError.localizedDescription) (\(nsError.domain == NSURLErrorDomain ? "URLError" : nsError.domain) \(nsError.code))"
    }

    private static func classify(_ error: any Error) -> Kind {
        if let failure = error as? TransportFailure { return failure.kind }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return .other }
        switch URLError.Code(rawValue: nsError.code) {
        case .timedOut: return .timedOut
        case .cannotConnectToHost: return .cannotConnect
        case .networkConnectionLost, .zeroByteResource: return .connectionLost
        case .badServerResponse:
            #if canImport(FoundationNetworking)
                // On Linux, -1011 is libcurl's "Empty reply from server": the connection closed
                // before any answer. On Apple platforms it means a malformed answer.
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
            // Linux reports a malformed status line as "Received HTTP/0.9 when not allowed" (-1002).
            return nsError.localizedDescription.contains("HTTP/0.9") ? .badServerResponse : .badURL
        case .cannotDecodeRawData, .cannotDecodeContentData, .cannotParseResponse: return .badServerResponse
        case .unknown: return classifyUnknown(nsError.localizedDescription)
        default: return .other
        }
    }

    /// Linux reports libcurl failures as -1 with libcurl's text; the text tells them apart.
    private static func classifyUnknown(_ text: String) -> Kind {
        let text = text.lowercased()
        if text.contains("transfer closed") || text.contains("empty reply") || text.contains("connection reset")
            || text.contains("recv failure") || text.contains("send failure")
        {
            return .connectionLost
        }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
            return .secureConnectionFailed
        }
        if text.contains("header") || text.contains("unencoding") || text.contains("http/")
            || text.contains("weird server reply")
        {
            return .badServerResponse
        }
        return .other
    }
}
