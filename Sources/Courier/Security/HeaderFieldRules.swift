import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rules every request's method and header fields must follow before Courier sends it.
///
/// A ``Provider`` applies them to each attempt after the interceptor's `adapt`, at the last point
/// before the transport, so they hold whatever set a header (the target, an endpoint closure, a
/// plugin's `prepare`, an adapter) and whatever transport sends it:
/// - **No header injection.** A header name must be an RFC 9110 token (letters, digits and
///   ``tokenSymbols``); a value must not hold a CR, LF, NUL or other control character (a tab is
///   allowed). A request that breaks this is never sent: the attempt fails with
///   ``RequestValidationError/invalidHeaderName(_:)`` or
///   ``RequestValidationError/invalidHeaderValue(name:problem:)``, which name the header and the
///   problem but never the value (it may be a token). The method must be a token too.
/// - **Courier owns the message framing.** The fields in ``framingFieldNames``
///   (`Content-Length`, `Transfer-Encoding`, `Host`, `Connection`…) describe how the message is
///   delimited and routed; a value copied from user code could disagree with the real body and
///   smuggle a second request into a kept-alive connection. Courier removes them from every
///   request, and the transport sets them from the URL and the body actually sent (as Apple's
///   URLSession does with these reserved headers). To reach a virtual host, put its name in the URL.
///
/// A custom ``Transport`` called directly (not through a provider) can apply the same rules with
/// ``checked(_:)``.
public enum HeaderFieldRules {
    /// The fields Courier removes from every request, compared without case: the engine sets
    /// them from the URL and the body.
    public static let framingFieldNames: Set<String> = [
        "content-length", "transfer-encoding", "host", "connection", "keep-alive", "proxy-connection", "te",
        "trailer", "upgrade",
    ]

    /// The symbols allowed in a token (a header name or a method) besides ASCII letters and digits.
    public static let tokenSymbols = "!#$%&'*+-.^_`|~"

    /// `request` without its framing fields, when it is valid.
    /// - Parameter request: The request about to be sent.
    /// - Returns: The request without the fields of ``framingFieldNames``.
    /// - Throws: The ``RequestValidationError`` of the first invalid method, header name or value.
    public static func checked(_ request: URLRequest) throws(RequestValidationError) -> URLRequest {
        try checked(request, method: request.httpMethod)
    }

    /// ``checked(_:)`` with the request's method read already (each read of a `URLRequest`
    /// field costs on Linux).
    static func checked(_ request: URLRequest, method: String?) throws(RequestValidationError) -> URLRequest {
        var request = request
        if let method, !isToken(method) {
            throw .invalidMethod(HTTPMethod(rawValue: method))
        }
        guard let fields = request.allHTTPHeaderFields, !fields.isEmpty else { return request }
        for (name, value) in fields {
            guard isToken(name) else { throw .invalidHeaderName(name) }
            if let problem = problem(inValue: value) { throw .invalidHeaderValue(name: name, problem: problem) }
            if isFramingField(name) {
                request.setHeaderField(nil, named: name)
            }
        }
        return request
    }

    /// Whether `text` is an RFC 9110 token: one or more letters, digits and ``tokenSymbols``.
    /// - Parameter text: A header name or a method.
    /// - Returns: `true` for a token.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.allUTF8(isTokenByte)
    }

    /// What makes `value` unfit for a header field, or `nil` when it may be sent.
    /// - Parameter value: A header value.
    /// - Returns: The first problem found, or `nil`.
    public static func problem(inValue value: String) -> HeaderValueProblem? {
        // On the contiguous bytes of a native string: iterating `utf8` byte by byte cost about
        // 40 instructions a byte (callgrind).
        let contiguous = value.utf8.withContiguousStorageIfAvailable { $0.first(where: isForbiddenValueByte) }
        let found = contiguous ?? value.utf8.first(where: isForbiddenValueByte)
        switch found {
        case nil: return nil
        case 0x0D: return .carriageReturn
        case 0x0A: return .lineFeed
        case 0x00: return .nul
        default: return .controlCharacter
        }
    }

    /// A control character other than a horizontal tab, or DEL.
    private static func isForbiddenValueByte(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// Whether `name` is one of ``framingFieldNames``, in any case: compared without lowercased
    /// copies or hashing, and only when its length is one of theirs.
    private static func isFramingField(_ name: String) -> Bool {
        let length = name.utf8.count
        guard length < 64, framingLengths & (1 << length) != 0 else { return false }
        return framingFieldNames.contains { $0.equalsIgnoringASCIICase(name) }
    }

    /// The lengths of ``framingFieldNames``, one bit each (all are under 64 bytes).
    private static let framingLengths: UInt64 = framingFieldNames.reduce(0) { $0 | 1 << $1.utf8.count }

    /// A letter, a digit or one of ``tokenSymbols`` (RFC 9110 `tchar`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

/// Why a header value cannot be sent.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum HeaderValueProblem: String, Sendable, Hashable, CustomStringConvertible {
    /// The value holds a carriage return (CR), which would end the header line.
    case carriageReturn
    /// The value holds a line feed (LF), which would end the header line.
    case lineFeed
    /// The value holds a NUL byte.
    case nul
    /// The value holds another control character (other than a tab).
    case controlCharacter

    /// For example `a carriage return (CR)`.
    public var description: String {
        switch self {
        case .carriageReturn: "a carriage return (CR)"
        case .lineFeed: "a line feed (LF)"
        case .nul: "a NUL byte"
        case .controlCharacter: "a control character"
        }
    }
}
