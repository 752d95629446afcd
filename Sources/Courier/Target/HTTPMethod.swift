/// An HTTP request method, such as `GET` or `POST`.
///
/// `HTTPMethod` is an open set: the common methods are static members, and any other token can
/// be written as `HTTPMethod(rawValue: "PROPFIND")`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it is sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token. The token is upper-cased, as HTTP methods conventionally are.
    /// - Parameter rawValue: The method token, for example `"PATCH"`.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// The method token, for example `"GET"`.
    public var description: String { rawValue }

    /// `CONNECT`.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `QUERY`.
    public static let query = HTTPMethod(rawValue: "QUERY")
    /// `TRACE`.
    public static let trace = HTTPMethod(rawValue: "TRACE")

    /// Whether parameters of a ``URLEncoding/Destination/methodDependent`` encoding go into the
    /// query string (`GET`, `HEAD`, `DELETE`) rather than the body.
    public var encodesParametersInURL: Bool {
        self == .get || self == .head || self == .delete
    }

    /// Whether this method may carry a `multipart/form-data` body, as Moya's `Method` says: `POST`,
    /// `PUT`, `PATCH` and `CONNECT`.
    ///
    /// Courier refuses a multipart body only on a method that ``forbidsBody``; this property is
    /// for code that follows Moya's stricter rule.
    public var supportsMultipart: Bool {
        self == .post || self == .put || self == .patch || self == .connect
    }

    /// Whether a request with this method must not carry a body (`GET`, `HEAD`).
    ///
    /// URLSession rejects such requests (on Linux with error -1103), so Courier refuses them
    /// before anything is sent.
    public var forbidsBody: Bool {
        self == .get || self == .head
    }
}
