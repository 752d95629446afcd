import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``Transport`` is asked to send.
public struct TransportRequest: Sendable {
    /// Where the request body comes from.
    ///
    /// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
    public enum Body: Sendable {
        /// The request's own `httpBody`, if any.
        case inline
        /// The file at this URL, streamed from disk.
        case file(URL)
        /// A multipart form, encoded when sent (large bodies through a temporary file).
        case multipart(MultipartFormData)
        /// A stream, read as the body is sent.
        case stream(UploadStream)
    }

    /// Where an engine puts the response body.
    public enum Delivery: Sendable, Hashable {
        /// The whole body in memory (``TransportResponse/data``).
        case memory
        /// The body written, as it arrives, to a temporary file the engine creates
        /// (``TransportResponse/fileURL``), deleted by the engine when the exchange fails.
        case file
        /// The response returned at its head, the body following as it arrives
        /// (``TransportResponse/stream``).
        case stream
    }

    /// The request, as adapted by the interceptor.
    public var urlRequest: URLRequest
    /// Where the body comes from.
    public var body: Body
    /// Where the response body goes: into memory (the default), a temporary file (downloads), or
    /// a stream returned at the head (streamed requests and Server-Sent Events).
    public var delivery: Delivery
    /// Receives byte counts as the body is sent and the response received; called on any thread.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// The longest the exchange may take in all, from sending to the last byte, or `nil` for the
    /// transport's own idle timeout. A transport fails with ``TransportFailure/Kind/timedOut``
    /// when it runs out. For a streamed request it is only what is left of the request's total
    /// timeout: the provider itself bounds each wait of a stream (for the head, then for each
    /// chunk) by the target's `timeoutInterval`.
    public var timeout: TimeInterval?
    /// The bounds of a streamed response (``Delivery/stream``): an engine without
    /// backpressure makes its body with ``TransportBody/makeStream(limits:)``, so that a slow
    /// reader's backlog stays within them. ``StreamingLimits/standard`` unless the caller set others.
    public var streamingLimits: StreamingLimits = .standard
    /// Whether the transport may send the request again by itself, when a kept-alive connection
    /// closed under it before any answer: only an idempotent request may be (RFC 9110 §9.2.2); any
    /// other fails with ``TransportFailure/Kind/connectionLost`` for the retrier to decide. By
    /// default from the method (`GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT`, `DELETE`); the provider
    /// sets it from the target's ``TargetType/idempotency``.
    public var isIdempotent: Bool {
        get { declaredIdempotent ?? Idempotency.byMethod.allowsResending(urlRequest) }
        set { declaredIdempotent = newValue }
    }
    /// What the provider declared, or `nil` for the method's rule (read only when a resend is
    /// considered: reading the method costs a string comparison on Linux).
    private var declaredIdempotent: Bool?

    /// The request's method, for an engine that does not speak `URLRequest`.
    public var method: String { urlRequest.httpMethod ?? "GET" }

    /// The request's header fields, for an engine that does not speak `URLRequest` (sorted by
    /// name: `URLRequest` keeps no order), a name the target repeats as its separate field lines,
    /// in order (``repeatedHeaderFields``).
    public var headerFields: HeaderFields {
        let fields = HeaderFields(urlRequest.allHTTPHeaderFields ?? [:])
        guard !repeatedHeaderFields.isEmpty else { return fields }
        var lines: [HeaderFields.Field] = []
        var placed = Set<String>()
        for field in fields {
            let separate = repeatedHeaderFields.values(for: field.name)
            // The joined value is still the target's: its lines go out apart. An adapter that
            // changed it wins with its one line.
            guard separate.count > 1, field.value == HeaderFields.joined(separate) else {
                lines.append(field)
                continue
            }
            if placed.insert(field.name.lowercased()).inserted {
                lines += separate.map { HeaderFields.Field(name: field.name, value: $0) }
            }
        }
        return HeaderFields(lines)
    }

    /// The fields whose name the target repeats (``TargetType/headerFields``), each value apart,
    /// in order; `urlRequest` holds them joined with ", ". A transport sends them as separate
    /// field lines when it declares ``TransportCapabilities/repeatedHeaderFields``; the provider
    /// refuses such a request on a transport that does not.
    public var repeatedHeaderFields = HeaderFields()

    /// The target, request and attempt this exchange belongs to, set by the provider for an
    /// engine that declares ``TransportCapabilities/requestOrigin`` (one object, shared by the
    /// attempt's exchanges: redirect hops, a resumable transfer's pieces); `nil` otherwise.
    public var origin: RequestOrigin?

    /// What the TLS connection must prove (pins, roots, a client certificate), or `nil`: an engine
    /// that declares ``TransportCapabilities/trustPolicy`` enforces it for each host it connects
    /// to; the provider never hands a request whose policy applies to its host to one that does not.
    public var trust: TrustPolicy? {
        get { trustBox?.policy }
        set { trustBox = newValue.map(TrustBox.init) }
    }

    /// For a WebSocket's opening handshake, what the upgrade asks and where the engine hands the
    /// open connection; `nil` for any other request. Set by the provider only for an engine that
    /// declares ``TransportCapabilities/webSocket``.
    public var webSocket: WebSocketUpgrade?

    /// The trust policy, boxed: a reference keeps the request's copies cheap (the policy inline
    /// made every request 853 instructions dearer on the stub pipeline; Benchmarks/README).
    var trustBox: TrustBox?

    /// Whether the provider's cookie jar handles this request's cookies: then an engine with
    /// cookies of its own leaves them off.
    var jarHandlesCookies = false

    /// Whether a 3xx may be the answer (the redirect policy does not follow every redirect), so
    /// an engine must keep its body: URLSession on Linux loses it on its cheaper route.
    package var keepsRedirectBodies = false

    /// Whether the engine's own cookie handling may apply: the request asks for cookies and the
    /// provider's jar does not handle them.
    public var engineHandlesCookies: Bool { !jarHandlesCookies && urlRequest.httpShouldHandleCookies }

    /// Creates a transport request.
    /// - Parameters:
    ///   - urlRequest: The request to send.
    ///   - body: Where the body comes from; the request's own by default.
    ///   - delivery: Where the response body goes; into memory by default.
    ///   - progress: Receives byte counts; none by default.
    ///   - timeout: The longest the exchange may take in all; none by default.
    public init(
        urlRequest: URLRequest, body: Body = .inline, delivery: Delivery = .memory,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, timeout: TimeInterval? = nil
    ) {
        self.urlRequest = urlRequest
        self.body = body
        self.delivery = delivery
        self.progress = progress
        self.timeout = timeout
    }
}

extension TransportRequest.Body {
    /// The size of the body in bytes, taking `request`'s own `httpBody` for ``inline``; 0 when a
    /// file cannot be read.
    func size(inline request: URLRequest) -> Int64 {
        switch self {
        case .inline: Int64(request.httpBody?.count ?? 0)
        case .file(let url): Int64((try? MultipartFormData.size(of: url)) ?? 0)
        case .multipart(let form): Int64((try? form.contentLength()) ?? 0)
        case .stream(let stream): Int64(stream.length ?? 0)
        }
    }
}

extension TransportRequest.Body {
    /// The body `request` carries: this one, or, for a request planned without a body of its own
    /// whose `httpBodyStream` a plugin or an adapter set, that stream, read once, and taken out of
    /// `request`. Every engine reads ``stream(_:)`` bodies; an `httpBodyStream` left in the
    /// request would be sent by one engine and dropped by another.
    func carried(by request: inout URLRequest) -> Self {
        // The stream first: one read of a `URLRequest` field (each costs on Linux) for most requests.
        guard case .inline = self, let stream = request.httpBodyStream, request.httpBody == nil else { return self }
        request.httpBodyStream = nil
        let handoff = InputStreamHandoff(stream)
        // Its length is unknown: Courier owns the framing (HeaderFieldRules removed any
        // `Content-Length` a plugin set), so it goes chunked. A target that knows its length
        // says so with `.uploadStream(UploadStream(length:))`.
        return .stream(UploadStream(length: nil, replayable: false) { try handoff.take() })
    }

    /// Whether a retry may send this body again with `request`: not a stream read once already,
    /// nor an `httpBodyStream` an engine began to read.
    func canBeSentAgain(in request: URLRequest) -> Bool {
        switch self {
        case .stream(let stream): stream.canBeSent
        case .inline: request.httpBody != nil || (request.httpBodyStream?.streamStatus ?? .notOpen) == .notOpen
        case .file, .multipart: true
        }
    }
}

/// An `InputStream` handed once to the engine that sends it.
// @unchecked Sendable: the stream is taken at most once, under the lock, and then read by its
// one reader only.
private final class InputStreamHandoff: @unchecked Sendable {
    private let stream: Locked<InputStream?>

    init(_ stream: InputStream) { self.stream = Locked(stream) }

    /// The stream, the first time; ``TransferError/streamNotReplayable`` after.
    func take() throws -> InputStream {
        let taken = stream.withLock { stream in
            defer { stream = nil }
            return stream
        }
        guard let taken else { throw TransferError.streamNotReplayable }
        return taken
    }
}
