import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``Transport`` can do beyond sending a request and returning its answer: the request
/// options it honours, and the limits it enforces itself.
///
/// A request that asks for an option its transport does not declare fails before it is sent,
/// with ``RequestValidationError/unsupportedOptions(_:transport:)``, rather than being sent with
/// the option silently ignored. What the transport does not enforce itself (a total timeout) the
/// provider enforces above it.
/// ```swift
/// struct MyTransport: Transport {
///     let engine: any Transport
///     var capabilities: TransportCapabilities { [.timeouts] }
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         try await engine.send(request)
///     }
/// }
/// ```
public struct TransportCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Honours a `URLRequest.cachePolicy` other than `.useProtocolCachePolicy` (a target's
    /// ``TargetType/cachePolicy``, say).
    public static let cachePolicy = TransportCapabilities(rawValue: 1 << 0)
    /// Honours `URLRequest.allowsCellularAccess == false` (and, on Apple platforms, the
    /// expensive and constrained network limits).
    public static let networkAccessLimits = TransportCapabilities(rawValue: 1 << 1)
    /// Honours a `URLRequest.networkServiceType` other than `.default`.
    public static let networkServiceType = TransportCapabilities(rawValue: 1 << 2)
    /// Enforces ``TransportRequest/timeout`` itself, failing with
    /// ``TransportFailure/Kind/timedOut``; without it, the provider cancels a transport that runs
    /// out of time.
    public static let timeouts = TransportCapabilities(rawValue: 1 << 3)

    /// Sends the separate field lines of a name a target repeats (``TargetType/headerFields``),
    /// in order, instead of one line of joined values. `URLRequest` cannot hold them: URLSession
    /// does not declare it.
    public static let repeatedHeaderFields = TransportCapabilities(rawValue: 1 << 4)

    /// Reads ``TransportRequest/origin`` (a transport that records or traces exchanges by target
    /// and attempt): the provider sets it only for an engine that declares this, so that no other
    /// request pays for it (about 360 instructions: an allocation and the target's copy).
    public static let requestOrigin = TransportCapabilities(rawValue: 1 << 5)

    /// Enforces ``TransportRequest/trust`` (pins, roots, a client certificate) on the connections
    /// it makes, failing with ``TrustFailure``. A request whose policy applies to its host is never
    /// handed to an engine without it: it fails with ``TrustFailure/notEnforceable(host:reason:)``,
    /// unsent.
    public static let trustPolicy = TransportCapabilities(rawValue: 1 << 6)

    /// Opens WebSockets: answers a request whose ``TransportRequest/webSocket`` is set with the
    /// opening handshake's response and hands a 101's connection to
    /// ``WebSocketUpgrade/accept(_:)`` (see ``WebSocketConnection``). A WebSocket target on an
    /// engine without it fails with ``RequestValidationError/unsupportedOptions(_:transport:)``,
    /// unsent.
    public static let webSocket = TransportCapabilities(rawValue: 1 << 7)

    /// The request options a request can ask for (everything but ``timeouts``).
    public static let requestOptions: TransportCapabilities = [
        .cachePolicy, .networkAccessLimits, .networkServiceType, .repeatedHeaderFields,
    ]
    /// Everything.
    public static let all: TransportCapabilities = [.requestOptions, .timeouts]

    /// The names of the capabilities in the set, for example `[cachePolicy, timeouts]`.
    public var description: String {
        let names: [(TransportCapabilities, String)] = [
            (.cachePolicy, "cachePolicy"), (.networkAccessLimits, "networkAccessLimits"),
            (.networkServiceType, "networkServiceType"), (.timeouts, "timeouts"),
            (.repeatedHeaderFields, "repeatedHeaderFields"), (.requestOrigin, "requestOrigin"),
            (.trustPolicy, "trustPolicy"), (.webSocket, "webSocket"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }

    /// The request options `request` asks for.
    /// - Parameter request: A request.
    /// - Returns: The options that differ from URLRequest's defaults.
    public static func required(by request: URLRequest) -> TransportCapabilities {
        var required: TransportCapabilities = []
        if request.cachePolicy != .useProtocolCachePolicy { required.insert(.cachePolicy) }
        if request.networkServiceType != .default { required.insert(.networkServiceType) }
        if !request.allowsCellularAccess || limitsNetwork(request) { required.insert(.networkAccessLimits) }
        return required
    }

    /// Whether `request` keeps off expensive or constrained networks (Apple platforms only: the
    /// properties do not exist in FoundationNetworking).
    private static func limitsNetwork(_ request: URLRequest) -> Bool {
        #if canImport(FoundationNetworking)
            false
        #else
            if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
                !request.allowsExpensiveNetworkAccess || !request.allowsConstrainedNetworkAccess
            } else {
                false
            }
        #endif
    }
}

extension TransportCapabilities {
    /// The error refusing `request` when it asks for options `transport` does not honour.
    static func refusal(
        of request: URLRequest, repeating repeated: HeaderFields, socket: Bool = false,
        honoured: TransportCapabilities, by transport: any Transport
    ) -> RequestValidationError? {
        guard !honoured.isSuperset(of: .requestOptions) || socket else { return nil }
        var required = required(by: request)
        if !repeated.isEmpty { required.insert(.repeatedHeaderFields) }
        if socket { required.insert(.webSocket) }
        let missing = required.subtracting(honoured)
        guard !missing.isEmpty else { return nil }
        return .unsupportedOptions(
            missing, transport: String(describing: type(of: transport)))
    }
}
