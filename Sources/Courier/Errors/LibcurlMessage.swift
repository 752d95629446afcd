/// The kind of a failure that URLSession on Linux reports as `URLError.unknown` (-1).
///
/// FoundationNetworking maps only a few libcurl result codes to `URLError` codes and reports the
/// rest as -1, dropping the code and keeping libcurl's message. The message's fixed opening,
/// written by libcurl (never localized), is then the only trace of what failed: it is compared
/// from its first character, never searched, so a host name or a path inside a message cannot
/// change the kind. On Apple platforms -1 has no such message and is ``TransportFailure/Kind/other``.
enum LibcurlMessage {
    /// Each libcurl message opening, with its kind, as observed on this project's loopback server
    /// (see ``TransportFailure``'s table).
    static let openings: [(opening: String, kind: TransportFailure.Kind)] = [
        // CURLE_PARTIAL_FILE: the connection closed before the announced or chunked body ended.
        ("transfer closed with", .connectionLost),
        // CURLE_RECV_ERROR / CURLE_SEND_ERROR for an errno other than ECONNRESET.
        ("Recv failure", .connectionLost),
        ("Send failure", .connectionLost),
        // CURLE_COULDNT_CONNECT for an errno other than ECONNREFUSED (no route, unreachable).
        ("Failed to connect to", .cannotConnect),
        // CURLE_WEIRD_SERVER_REPLY and header parsing.
        ("Header without colon", .badServerResponse),
        ("Too large response headers", .badServerResponse),
        ("Weird server reply", .badServerResponse),
        ("Unsupported HTTP version", .badServerResponse),
        ("Invalid status line", .badServerResponse),
        // CURLE_WRITE_ERROR while handing headers over: an HTTP/2 status line on HTTP/1.1.
        ("Failed writing header", .badServerResponse),
        // CURLE_OUT_OF_MEMORY: libcurl's answer to one header line over its 100 KiB limit.
        ("Out of memory", .badServerResponse),
        // CURLE_RECV_ERROR in the chunked decoder, CURLE_BAD_CONTENT_ENCODING.
        ("Illegal or missing hexadecimal sequence", .badServerResponse),
        ("Error while processing content unencoding", .badServerResponse),
        // CURLE_SSL_CONNECT_ERROR with no TLS error: the peer closed the connection during the
        // handshake (a reset is "Recv failure" above), a network event and not a refusal.
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL", .connectionLost),
        // CURLE_SSL_* and CURLE_PEER_FAILED_VERIFICATION.
        ("SSL", .secureConnectionFailed),
        ("OpenSSL", .secureConnectionFailed),
        ("TLS", .secureConnectionFailed),
    ]

    /// The kind of the failure whose message is `message`: ``TransportFailure/Kind/other`` for a
    /// message of no known opening, and always on Apple platforms.
    static func kind(of message: String) -> TransportFailure.Kind {
        #if canImport(FoundationNetworking)
            openings.first { message.hasPrefix($0.opening) }?.kind ?? .other
        #else
            .other
        #endif
    }
}
