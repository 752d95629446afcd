import Courier
import Foundation

/// One file served with byte ranges and validators, as a download server serves it, for tests of
/// resumable downloads: answer a ``LoopbackServer``'s requests with ``reply(to:)``.
///
/// ```swift
/// let resource = RangedResource(Data(repeating: 7, count: 1 << 20))
/// let server = try LoopbackServer { resource.reply(to: $0) }
/// resource.cutNext(after: 300_000)       // the next answer stops there, the connection closed
/// ```
/// It honours `Range: bytes=N-` with `If-Range` (a 206 with its `Content-Range`; a 200 when the
/// validator no longer matches; a 416 past the end), and can misbehave on purpose: cut its next
/// answers at chosen bytes, change the file (a new `ETag`), stop doing ranges, lie in
/// `Content-Range`, send a 206 longer than its range, or ignore `If-Range`. It counts the body bytes it sent, so a test can bound what a resumption costs.
public final class RangedResource: Sendable {
    private struct State {
        var body: Data
        var version = 1
        var cuts: [(bytes: Int, stalls: Bool)] = []
        var supportsRanges = true
        var sendsValidator = true
        var rangeLie: Int64 = 0
        var ignoresIfRange = false
        var overrun: (bytes: Int, declared: Bool)?
        var bytesSent: Int64 = 0
        var ranges: [String?] = []
    }

    private let state: Locked<State>

    /// Serves `body`.
    /// - Parameter body: The file's bytes.
    public init(_ body: Data) {
        state = Locked(State(body: body))
    }

    /// The file's current bytes.
    public var body: Data { state.withLock { $0.body } }
    /// The body bytes sent so far, over every answer (cut ones count what was sent).
    public var bytesSent: Int64 { state.withLock { $0.bytesSent } }
    /// The `Range` field of each request received, in order (`nil` for none).
    public var rangesAsked: [String?] { state.withLock { $0.ranges } }

    /// Cuts the next answer's body after `bytes` bytes of it (counted from the start of what that
    /// answer sends), then closes the connection. Calls queue: each cuts one answer.
    /// - Parameter bytes: How many bytes of the body are sent.
    public func cutNext(after bytes: Int) {
        state.withLock { $0.cuts.append((bytes, false)) }
    }

    /// Stalls the next answer's body after `bytes` bytes of it, the connection held open until
    /// the client closes it (or its process ends). Queued with ``cutNext(after:)``.
    /// - Parameter bytes: How many bytes of the body are sent.
    public func stallNext(after bytes: Int) {
        state.withLock { $0.cuts.append((bytes, true)) }
    }

    /// Replaces the file: its `ETag` changes, so a resumed download gets the whole new file.
    /// - Parameter body: The new bytes.
    public func change(to body: Data) {
        state.withLock { state in
            state.body = body
            state.version += 1
        }
    }

    /// Whether ranges are served; without them every answer is a 200 of the whole file, as a
    /// server that ignores `Range` answers.
    public var supportsRanges: Bool {
        get { state.withLock { $0.supportsRanges } }
        set { state.withLock { $0.supportsRanges = newValue } }
    }

    /// Whether answers carry an `ETag`; without one (and without `Last-Modified`) a download
    /// cannot be resumed safely.
    public var sendsValidator: Bool {
        get { state.withLock { $0.sendsValidator } }
        set { state.withLock { $0.sendsValidator = newValue } }
    }

    /// Makes every 206 announce a range `offset` bytes after the one it sends: a lying server.
    /// - Parameter offset: How far the announced range is from the truth.
    public func lieInContentRange(by offset: Int64) {
        state.withLock { $0.rangeLie = offset }
    }

    /// Whether `Range` is served whatever `If-Range` says: a server that ignores `If-Range`, and
    /// answers a changed file's range (with its new `ETag`) as if it had not changed.
    public var ignoresIfRange: Bool {
        get { state.withLock { $0.ignoresIfRange } }
        set { state.withLock { $0.ignoresIfRange = newValue } }
    }

    /// Makes every 206 send `bytes` bytes of `0xEE` before its range, under the `Content-Range` of
    /// the range alone: a body longer than its range. With `declaringLength`, its `Content-Length`
    /// says the longer length; without, the body is sent chunked, with no length. `nil` stops it.
    /// - Parameters:
    ///   - bytes: How many bytes too many; `nil` for an honest server again.
    ///   - declaringLength: Whether the answer's `Content-Length` gives the body's true length.
    public func overrunRanges(by bytes: Int?, declaringLength: Bool = true) {
        state.withLock { $0.overrun = bytes.map { ($0, declaringLength) } }
    }

    /// The answer to `request`.
    /// - Parameter request: A `GET` of the file.
    /// - Returns: A 200, a 206, or a 416, cut when a cut is queued.
    public func reply(to request: ServerRequest) -> ServerReply {
        state.withLock { state in
            state.ranges.append(request.header("Range"))
            let tag = "\"v\(state.version)-\(state.body.count)\""
            var headers = ["Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"]
            if state.sendsValidator { headers["ETag"] = tag }
            var status = 200
            var body = state.body
            if state.supportsRanges, let start = Self.start(of: request.header("Range")),
                state.ignoresIfRange || request.header("If-Range").map({ $0 == tag && state.sendsValidator }) ?? true
            {
                guard start < Int64(state.body.count) else {
                    return ServerReply(status: 416, headers: ["Content-Range": "bytes */\(state.body.count)"])
                }
                status = 206
                body = state.body.subdata(in: Int(start)..<state.body.count)
                let first = start + state.rangeLie
                headers["Content-Range"] = "bytes \(first)-\(first + Int64(body.count) - 1)/\(state.body.count)"
                if let overrun = state.overrun {
                    body = Data(repeating: 0xEE, count: overrun.bytes) + body
                    state.bytesSent += Int64(body.count)
                    if !overrun.declared { return Self.chunked(206, headers: headers, body: body) }
                    return ServerReply(status: 206, headers: headers, body: body)
                }
            }
            var reply = ServerReply(status: status, headers: headers, body: body)
            if !state.cuts.isEmpty {
                let cut = state.cuts.removeFirst()
                reply.cutsBodyAfter = min(cut.bytes, body.count)
                reply.stallsInsteadOfClosing = cut.stalls
            }
            state.bytesSent += Int64(reply.cutsBodyAfter ?? body.count)
            return reply
        }
    }

    /// A reply with `body` in one chunk of the chunked coding, without a `Content-Length`.
    private static func chunked(_ status: Int, headers: [String: String], body: Data) -> ServerReply {
        var head = "HTTP/1.1 \(status) Partial Content\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        let chunk = Data("\(head)\r\n\(String(body.count, radix: 16))\r\n".utf8) + body + Data("\r\n0\r\n\r\n".utf8)
        return .raw([.send(chunk)])
    }

    /// `N` of `bytes=N-`; `nil` for any other form.
    private static func start(of range: String?) -> Int64? {
        guard let range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int64(range.dropFirst(6).dropLast())
    }
}
