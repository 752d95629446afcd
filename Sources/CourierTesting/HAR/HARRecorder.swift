import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that sends with a real engine and writes every exchange to a HAR 1.2 file (the
/// format browsers' developer tools import and export), secrets replaced: put it where the
/// provider's engine goes, and it sees what the engine sees (each attempt, each redirect hop, each
/// piece of a resumable transfer).
///
/// ```swift
/// let recorder = HARRecorder(recording: URLSessionTransport(), to: fixtures.appendingPathComponent("user.har"))
/// let github = Provider<GitHub>(transport: recorder)
/// ```
/// Each entry has the request and the response, their heads and bodies (UTF-8 text as it is,
/// anything else in Base64, up to `maximumBodyBytes`), timings, and in `_courier` the target,
/// the attempt and, for a streamed body, when each chunk came. An exchange that failed is an
/// entry with status 0 and the failure's kind as its status text (a cancelled one is not
/// recorded). A longer body keeps its start
/// only, and its replay fails with ``HARReplayError/bodyNotRecorded(request:recorded:size:)``
/// rather than answer short. The file is rewritten after every entry. See ``Cassette`` to record
/// once and replay after.
///
/// **Secrets are never written**: `redaction` (`Redaction.default` unless you pass your own, as
/// for the logger) replaces the values of credential header fields (`Authorization`, `Cookie`,
/// `Set-Cookie`, API keys), credential query items and JSON or form fields (`access_token`,
/// `password`…) with `Redaction.mask` (`***`), in requests and responses. A ``HARReplayer`` redacts
/// the requests it is asked the same way, so they still match.
public final class HARRecorder: Transport, Sendable {
    /// The engine that really sends.
    public let engine: any Transport
    /// What is hidden from the file.
    public let redaction: Redaction
    /// The most bytes of one body the file keeps; a longer body keeps its start, marked truncated.
    public let maximumBodyBytes: Int
    let archive: HARArchive

    /// Creates a recorder.
    /// - Parameters:
    ///   - engine: The engine that really sends.
    ///   - file: The HAR file to write (replaced).
    ///   - redaction: What is hidden from the file; `Redaction.default` by default.
    ///   - maximumBodyBytes: The most bytes of one body kept; 4 MiB by default.
    public convenience init(
        recording engine: any Transport, to file: URL, redaction: Redaction = .default, maximumBodyBytes: Int = 4 << 20
    ) {
        self.init(engine, HARArchive(url: file), redaction: redaction, maximumBodyBytes: maximumBodyBytes)
    }

    init(_ engine: any Transport, _ archive: HARArchive, redaction: Redaction, maximumBodyBytes: Int) {
        self.engine = engine
        self.archive = archive
        self.redaction = redaction
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// The HAR file.
    public var file: URL { archive.url }

    /// How many exchanges the file holds.
    public var entryCount: Int { archive.entries.count }

    /// The engine's capabilities, and `TransportCapabilities.requestOrigin` (entries name their
    /// target and attempt).
    public var capabilities: TransportCapabilities { engine.capabilities.union(.requestOrigin) }

    /// Sends `request` with the engine and records the exchange.
    ///
    /// It runs off the caller's actor (`@concurrent`): the whole file is written again after each
    /// exchange, blocking file I/O that grows with the recording. (A streamed body's entry is
    /// written when its reader reaches the end, on the reader's executor.)
    /// - Parameter request: The request.
    /// - Returns: The engine's response (a streamed body is recorded as it is read).
    /// - Throws: What the engine throws (recorded as an entry with status 0).
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let order = archive.reserve()
        let started = Date()
        let clock = ContinuousClock.now
        var outgoing = request
        let requestBody = Self.capture(&outgoing, limit: maximumBodyBytes)
        // A socket's entry is written when it ends, with its messages.
        let socket = request.webSocket.map { _ in SocketEntry(archive: archive, order: order, limit: maximumBodyBytes) }
        if let upgrade = request.webSocket, let socket {
            outgoing.webSocket = upgrade.relaying { [redaction] connection in
                RecordingWebSocketConnection(connection, redaction: redaction, entry: socket)
            }
        }
        @Sendable func entry(_ response: HAR.Response, wait: Double, receive: Double) -> HAR.Entry {
            let body = requestBody.kept.0
            return HAR.Entry(
                startedDateTime: HAR.timestamp(started), time: wait + receive,
                request: HAR.request(request.urlRequest, body: body, redaction: redaction),
                response: response, timings: HAR.Timings(send: 0, wait: wait, receive: receive),
                courier: courierFields(of: request))
        }
        let response: TransportResponse
        do {
            response = try await engine.send(outgoing)
        } catch {
            // A cancelled exchange says nothing of the server: it is not recorded.
            if error is CancellationError || Task.isCancelled { throw error }
            let wait = BodyCapture.milliseconds(clock.duration(to: .now))
            archive.add(entry(HAR.failure(error), wait: wait, receive: 0), order: order)
            throw error
        }
        let wait = BodyCapture.milliseconds(clock.duration(to: .now))
        guard let stream = response.stream else {
            let (body, truncated, size) = wholeBody(of: response)
            var har = entry(
                HAR.response(
                    status: response.statusCode, headers: response.headerFields, body: body, size: size,
                    truncated: truncated, redaction: redaction), wait: wait, receive: 0)
            if truncated { har.courier?.truncated = true }
            if let socket, response.statusCode == 101 { socket.set(har) } else { archive.add(har, order: order) }
            return response
        }
        let url = request.urlRequest.url ?? URL(fileURLWithPath: "/")
        return recording(stream, of: response, url: url) { [archive, redaction] capture in
            let kept = capture.captured
            var har = entry(
                HAR.response(
                    status: response.statusCode, headers: response.headerFields, body: kept.data,
                    size: kept.size, truncated: kept.truncated, redaction: redaction),
                wait: wait, receive: BodyCapture.milliseconds(clock.duration(to: .now)) - wait)
            har.courier?.chunks = kept.chunks
            if kept.truncated { har.courier?.truncated = true }
            if kept.incomplete { har.courier?.incomplete = true }
            archive.add(har, order: order)
        }
    }

    /// The target, attempt and request of `request`, when a provider sent it.
    private func courierFields(of request: TransportRequest) -> HAR.CourierFields {
        guard let origin = request.origin else { return HAR.CourierFields() }
        // The type and case only: a description would carry the target's values (a password of
        // `login(user:password:)`, a struct target's token) into the file.
        return HAR.CourierFields(
            target: TargetName.of(origin.target), attempt: origin.attempt, request: origin.requestID.description)
    }

    /// The body of a response in memory or in a file, up to the limit; whether it was longer, and
    /// its size.
    private func wholeBody(of response: TransportResponse) -> (Data, Bool, Int) {
        if let file = response.fileURL {
            let (data, truncated) = BodyCapture.read(file, limit: maximumBodyBytes)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
            return (data, truncated, size ?? data.count)
        }
        return (response.data.prefix(maximumBodyBytes), response.data.count > maximumBodyBytes, response.data.count)
    }

    /// `response` with its streamed body read through a capture; `finish` records it once the body
    /// ends, fails or is abandoned.
    private func recording(
        _ stream: TransportBody, of response: TransportResponse, url: URL,
        finish: @escaping @Sendable (BodyCapture) -> Void
    ) -> TransportResponse {
        let capture = BodyCapture(limit: maximumBodyBytes)
        let reader = StreamReader(stream.makeAsyncIterator())
        let done = Locked(false)
        let finishOnce: @Sendable () -> Void = {
            if done.withLock({ done in
                defer { done = true }
                return !done
            }) {
                finish(capture)
            }
        }
        let body = TransportBody(
            pulling: {
                do {
                    guard let chunk = try await reader.next() else {
                        finishOnce()
                        return nil
                    }
                    capture.add(chunk)
                    return chunk
                } catch {
                    capture.markIncomplete()
                    finishOnce()
                    throw error
                }
            },
            onTermination: {
                capture.markIncomplete()
                reader.abandon()
                finishOnce()
            })
        var teed =
            response.response.map { TransportResponse(response: $0, stream: body) }
            ?? TransportResponse(
                statusCode: response.statusCode, headerFields: response.headerFields,
                url: url, stream: body)
        teed.protocolVersion = response.protocolVersion
        teed.resends = response.resends
        return teed
    }
}
