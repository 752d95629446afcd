import Courier
import Foundation

/// The server side of resumable uploads (draft-ietf-httpbis-resumable-upload, interop version 6,
/// or tus 1.0.0 with ``init(speaking:)``) for tests: answer a ``LoopbackServer``'s requests with
/// ``reply(to:)``.
///
/// ```swift
/// let uploads = ResumableUploadServer()
/// let server = try LoopbackServer { uploads.reply(to: $0) }
/// uploads.cutNextAppend(after: 300_000)   // keeps that much of the next append, then closes
/// ```
/// It answers `OPTIONS` with `Upload-Limit`, creates an upload resource (`/uploads/N`, announced
/// by a `104` and then a `201` with its `Location`) for a request with `Upload-Complete`, tells its
/// offset to a `HEAD`, appends a `PATCH` at the right offset (a `409` with the real one otherwise),
/// deletes it on `DELETE`, and answers the completed upload with a `200` whose body is the byte
/// count. Misbehaviour on purpose: cut an append at a chosen byte (the bytes before it kept, the
/// connection closed without an answer, or a server error answered), forget every upload (a restarted server without
/// storage), or not take resumable uploads at all. A plain request's body is taken whole. An
/// append larger than ``maximumAppendSize`` is refused with a `400`.
public final class ResumableUploadServer: Sendable {
    struct Upload {
        var body: Data
        var complete: Bool
        /// The length the creation announced (tus), or `nil`.
        var length: Int64? = nil
    }

    struct State {
        var uploads: [Int: Upload] = [:]
        var next = 1
        var cuts: [(bytes: Int, status: Int?)] = []
        var takesResumableUploads = true
        var maximumSize: Int64?
        var maximumAppendSize: Int64?
        var completed: [Data] = []
        var appended: Int64 = 0
    }

    let state = Locked(State())
    /// The protocol the server speaks.
    public let speaking: ResumableUploadProtocol

    /// Creates the server's state.
    /// - Parameter speaking: The protocol of its resumable uploads; the IETF draft by default.
    public init(speaking: ResumableUploadProtocol = .ietfDraft) {
        self.speaking = speaking
    }

    /// The bodies of the uploads completed so far, resumable or plain, in order.
    public var completed: [Data] { state.withLock { $0.completed } }
    /// The body bytes taken by appends and plain uploads (what crossed the network to be kept).
    public var bytesReceived: Int64 { state.withLock { $0.appended } }
    /// The upload resources not completed or deleted.
    public var openUploads: Int { state.withLock { $0.uploads.values.filter { !$0.complete }.count } }

    /// Whether `OPTIONS` and creations are answered as the draft says; when `false`, the server
    /// knows nothing of the draft and takes every request as a plain one.
    public var takesResumableUploads: Bool {
        get { state.withLock { $0.takesResumableUploads } }
        set { state.withLock { $0.takesResumableUploads = newValue } }
    }

    /// Keeps only the first `bytes` bytes of the next append, then closes the connection without
    /// answering. Calls queue.
    /// - Parameter bytes: How many bytes of the append's body are kept.
    public func cutNextAppend(after bytes: Int) {
        state.withLock { $0.cuts.append((bytes, nil)) }
    }

    /// Keeps only the first `bytes` bytes of the next append and answers it with `status` (a
    /// server error, say), the upload resource kept. Queued with ``cutNextAppend(after:)``.
    /// - Parameters:
    ///   - bytes: How many bytes of the append's body are kept.
    ///   - status: The answer's status code.
    public func failNextAppend(after bytes: Int, status: Int) {
        state.withLock { $0.cuts.append((bytes, status)) }
    }

    /// The largest upload the server takes (announced in `Upload-Limit` as `max-size`), or `nil`
    /// for no limit.
    public var maximumSize: Int64? {
        get { state.withLock { $0.maximumSize } }
        set { state.withLock { $0.maximumSize = newValue } }
    }

    /// The most bytes one append may carry (announced in `Upload-Limit` as `max-append-size`),
    /// or `nil` for no limit. The draft only.
    public var maximumAppendSize: Int64? {
        get { state.withLock { $0.maximumAppendSize } }
        set { state.withLock { $0.maximumAppendSize = newValue } }
    }

    /// Forgets every upload resource, as a server restarted without storage.
    public func forgetUploads() {
        state.withLock { $0.uploads = [:] }
    }

    /// The answer to `request`.
    /// - Parameter request: A request of the draft, or a plain upload.
    /// - Returns: The reply.
    public func reply(to request: ServerRequest) -> ServerReply {
        state.withLock { state in
            guard state.takesResumableUploads else { return Self.plain(request, &state) }
            if speaking == .tus { return Self.tusReply(to: request, &state) }
            var version = ["Upload-Draft-Interop-Version": String(ResumableUpload.interopVersion)]
            version["Upload-Limit"] = Self.limit(state)
            if request.method == "OPTIONS" {
                return ServerReply(status: 204, headers: ["Upload-Limit": Self.limit(state)])
            }
            guard request.path.hasPrefix("/uploads/"), let id = Int(request.path.dropFirst(9)) else {
                return request.header("Upload-Complete") == nil
                    ? Self.plain(request, &state) : Self.create(request, &state, version: version)
            }
            guard let upload = state.uploads[id] else { return ServerReply(status: 404, headers: version) }
            switch request.method {
            case "HEAD":
                var headers = version
                headers["Upload-Offset"] = String(upload.body.count)
                headers["Upload-Complete"] = upload.complete ? "?1" : "?0"
                headers["Cache-Control"] = "no-store"
                return ServerReply(status: 204, headers: headers)
            case "PATCH": return Self.append(request, to: id, &state, version: version)
            case "DELETE":
                state.uploads[id] = nil
                return ServerReply(status: 204, headers: version)
            default: return ServerReply(status: 405, headers: version)
            }
        }
    }

    /// The draft's `Upload-Limit` of the server.
    private static func limit(_ state: State) -> String {
        var limit = "min-size=0"
        if let size = state.maximumSize { limit += ", max-size=\(size)" }
        if let size = state.maximumAppendSize { limit += ", max-append-size=\(size)" }
        return limit
    }

    static func plain(_ request: ServerRequest, _ state: inout State) -> ServerReply {
        guard request.method != "OPTIONS" else { return ServerReply(status: 405) }
        state.completed.append(request.body)
        state.appended += Int64(request.body.count)
        return .text(String(request.body.count))
    }

    private static func create(_ request: ServerRequest, _ state: inout State, version: [String: String]) -> ServerReply
    {
        let id = state.next
        state.next += 1
        let complete = request.header("Upload-Complete") == "?1"
        state.uploads[id] = Upload(body: request.body, complete: complete)
        state.appended += Int64(request.body.count)
        if complete { return finish(id, &state) }
        let location = "/uploads/\(id)"
        let informational =
            "HTTP/1.1 104 Upload Resumption Supported\r\nLocation: \(location)\r\n"
            + "Upload-Draft-Interop-Version: \(ResumableUpload.interopVersion)\r\n\r\n"
        var headers = version
        headers["Location"] = location
        headers["Upload-Offset"] = String(request.body.count)
        headers["Upload-Complete"] = "?0"
        let created = ServerReply(status: 201, headers: headers)
        return .raw([.send(Data(informational.utf8)), .send(created.serialized())])
    }

    private static func append(
        _ request: ServerRequest, to id: Int, _ state: inout State, version: [String: String]
    ) -> ServerReply {
        guard var upload = state.uploads[id] else { return ServerReply(status: 404, headers: version) }
        if let limit = state.maximumAppendSize, request.body.count > limit {
            return ServerReply(status: 400, headers: version)
        }
        guard request.header("Upload-Offset") == String(upload.body.count), !upload.complete,
            request.header("Content-Type") == "application/partial-upload"
        else {
            var headers = version
            headers["Upload-Offset"] = String(upload.body.count)
            headers["Upload-Complete"] = upload.complete ? "?1" : "?0"
            return ServerReply(status: 409, headers: headers)
        }
        if let cut = cut(request, into: id, &state) { return cut(version) }
        upload.body.append(request.body)
        state.appended += Int64(request.body.count)
        upload.complete = request.header("Upload-Complete") != "?0"
        state.uploads[id] = upload
        guard upload.complete else {
            var headers = version
            headers["Upload-Offset"] = String(upload.body.count)
            headers["Upload-Complete"] = "?0"
            return ServerReply(status: 204, headers: headers)
        }
        return finish(id, &state)
    }

    /// Applies the next queued cut to an append to upload `id`: keeps that much of its body and
    /// gives the reply (its fields added), or `nil` when no cut is queued.
    static func cut(
        _ request: ServerRequest, into id: Int, _ state: inout State
    ) -> (([String: String]) -> ServerReply)? {
        guard !state.cuts.isEmpty, var upload = state.uploads[id] else { return nil }
        let cut = state.cuts.removeFirst()
        let kept = request.body.prefix(cut.bytes)
        upload.body.append(kept)
        state.uploads[id] = upload
        state.appended += Int64(kept.count)
        return { headers in cut.status.map { ServerReply(status: $0, headers: headers) } ?? .closeConnection }
    }

    static func finish(_ id: Int, _ state: inout State) -> ServerReply {
        guard let upload = state.uploads[id] else { return ServerReply(status: 404) }
        state.completed.append(upload.body)
        return .text(String(upload.body.count))
    }
}
