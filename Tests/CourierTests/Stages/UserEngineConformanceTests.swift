import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An engine as a user would write one in an afternoon, with `send` only: one URLSession data
/// task per hop, redirects refused so the provider follows them, the body from its source, a
/// download written to a temporary file, cancellation passed on. Courier's public conformance
/// suite runs against it: its pipeline cases (redirects, the timeout it does not enforce) pass
/// through the stages a provider adds; what such an engine leaves out is listed, with the reason.
///
/// Run alone by .ci/run (`COURIER_USER_ENGINE_TESTS=1 swift test --skip-build --filter
/// UserEngineConformance`): FoundationNetworking busies a core while this engine's stalled and
/// cancelled tasks wind down, which would slow the timing of the suites running beside it.
@Suite(
    "Transport conformance: a user-written engine",
    .enabled(if: ProcessInfo.processInfo.environment["COURIER_USER_ENGINE_TESTS"] == "1", "run alone by .ci/run"))
struct UserEngineConformanceTests {
    static let suite = TransportConformance(
        exceptions: [
            .streamedHeadBeforeBody: "a data task hands the body over whole: the engine cannot stream",
            .streamedSlowConsumer: "a data task holds the whole body in memory before the reader reads",
            .streamedIdleTimeout: "an endless event stream never ends its data task, so no head arrives in time",
            .streamedEventsResumeAfterCut: "a cut stream fails its data task, and the events before the cut with it",
            .progress: "a data task with a completion handler reports no progress",
            .cancelBeforeHead:
                "URLSession on Linux often calls a cancelled data task's handler only when its connection gives up, seconds later",
            .cancelDuringBody: "the case waits for progress to know the body started: a data task reports none",
            .staleConnectionResend:
                "URLSession on Linux does not report a kept-alive connection closed after the request was read: the POST waits for its timeout",
        ], makeTransport: { DataTaskEngine() })

    /// The cases this engine cannot even run: a data task buffers the whole body, so a 16 GiB
    /// stream to a stopped reader (`streamedBacklogBound`) would fill the machine's memory, and a
    /// body the server never finishes (`streamedEarlyEnd`) waits URLSession's 60 s idle timeout.
    static let notRun: Set<TransportConformance.Case> = [.streamedBacklogBound, .streamedEarlyEnd]

    /// One case at a time: the engine's URLSession on Linux holds threads while it cancels, which
    /// slows the other cases' timers when they all run at once.
    @Test(
        "a user-written engine conforms, but for its documented exceptions", .serialized,
        arguments: TransportConformance.Case.allCases.filter { !Self.notRun.contains($0) })
    func userEngine(_ testCase: TransportConformance.Case) async throws {
        if let reason = Self.suite.exception(for: testCase) {
            // These depend on FoundationNetworking's timing: late only some of the time.
            let intermittent = [.cancelBeforeHead, .cancelDuringBody, .staleConnectionResend].contains(testCase)
            await withKnownIssue(Comment(rawValue: reason), isIntermittent: intermittent) {
                try await Self.suite.check(testCase)
            }
        } else {
            try await Self.suite.check(testCase)
        }
    }
}

/// The engine: nothing of Courier's but the seam's types and the public body readers.
final class DataTaskEngine: NSObject, Transport, URLSessionTaskDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: `session` is set once in `init` and only read afterwards; URLSession
    // is thread-safe.
    private var session: URLSession!

    override init() {
        super.init()
        session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Redirects are answers: the provider follows them with Courier's rules.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = request.urlRequest
        urlRequest.httpBody = try await body(of: request)
        let task = Locked<URLSessionDataTask?>(nil)
        let (data, response): (Data, HTTPURLResponse) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let made = session.dataTask(with: urlRequest) { data, response, error in
                    guard let http = response as? HTTPURLResponse else {
                        return continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                    if let error { return continuation.resume(throwing: error) }
                    continuation.resume(returning: (data ?? Data(), http))
                }
                task.withLock { $0 = made }
                made.resume()
                if Task.isCancelled { made.cancel() }
            }
        } onCancel: {
            task.withLock { $0 }?.cancel()
        }
        guard request.delivery == .file else { return TransportResponse(response: response, data: data) }
        let file = try DownloadFile()
        guard file.write(data), file.flush() else {
            file.delete()
            throw TransferError.cannotWriteFile(file.url)
        }
        file.close()
        return TransportResponse(response: response, data: Data(), fileURL: file.url)
    }

    /// The request body, read whole from its source with Courier's public readers.
    private func body(of request: TransportRequest) async throws -> Data? {
        switch request.body {
        case .inline: return request.urlRequest.httpBody
        case .file(let url): return try Data(contentsOf: url)
        case .multipart(let form):
            switch try form.encodedForUpload() {
            case .data(let data): return data
            case .temporaryFile(let url):
                defer { try? FileManager.default.removeItem(at: url) }
                return try Data(contentsOf: url)
            }
        case .stream(let stream):
            var data = Data()
            for try await chunk in try stream.chunks() { data.append(chunk) }
            return data
        }
    }
}
