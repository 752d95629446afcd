import OTelSemanticConventions

/// The OpenTelemetry attribute names the plugins write, taken from swift-otel-semantic-conventions
/// (stable names only; `network.protocol.version` and the others below are stable since the HTTP
/// conventions 1.23) so that a rename upstream is a compiler error here, not a silent drift.
enum Attribute {
    /// `http.request.method`.
    static var method: String { OTelAttribute.http.request.method }
    /// `http.request.method_original`, the method as sent when ``method`` says `_OTHER`.
    static var methodOriginal: String { OTelAttribute.http.request.methodOriginal }
    /// `http.request.resend_count`.
    static var resendCount: String { OTelAttribute.http.request.resendCount }
    /// `http.response.status_code`.
    static var statusCode: String { OTelAttribute.http.response.statusCode }
    /// `server.address`.
    static var serverAddress: String { OTelAttribute.server.address }
    /// `server.port`.
    static var serverPort: String { OTelAttribute.server.port }
    /// `url.full`.
    static var urlFull: String { OTelAttribute.url.full }
    /// `error.type`.
    static var errorType: String { OTelAttribute.error.type }
    /// `network.protocol.version`.
    static var protocolVersion: String { OTelAttribute.network.protocol.version }
}
