import Courier
import CourierTesting
import Foundation
import NotesAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tour's steps, sharing one signed-in session.
final class TourContext: Sendable {
    let baseURL: URL
    let options: Options
    let refreshes = CallRecorder()
    let authentication: AuthenticationInterceptor<NotesAuthenticator>

    init(baseURL: URL, options: Options) {
        self.baseURL = baseURL
        self.options = options
        let refreshes = refreshes
        authentication = NotesService.authentication(
            credential: nil, onRefresh: { _ in refreshes.record(.send) },
            onRefreshFailure: { print("   The refresh failed (\($0)): the app would sign out here.") })
    }

    func provider(_ plugins: [any PluginType] = []) -> Provider<NotesAPI> {
        NotesService.makeProvider(baseURL: baseURL, authentication: authentication, plugins: plugins)
    }

    /// 1. Sign in, then a request logged by `NetworkLoggerPlugin` as it is sent: the token the
    /// interceptor added shows as `Authorization: ***`.
    func signInAndLog() async throws {
        print("1. Sign in, and a logged request")
        let tokens = try await provider().request(
            .login(username: options.username, password: options.password), as: TokenPair.self)
        authentication.credential = tokens
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, entries in
                for entry in entries { print("   \(entry)") }
            }))
        let page = try await provider([logger]).request(.notes(page: 1, perPage: 2), as: NotesPage.self)
        print("   decoded page \(page.page): \(page.notes.map(\.text).joined(separator: ", "))")
        let note = try await provider().request(.create(NewNote(text: "Try Courier")), as: Note.self)
        print("   created note #\(note.id): \(note.text)\n")
    }

    /// 2. Twelve concurrent requests with an expired access token: one refresh serves them all.
    func sharedRefresh() async throws {
        print("2. A token refresh shared by concurrent requests")
        let current = try require(authentication.credential)
        authentication.credential = TokenPair(accessToken: "expired", refreshToken: current.refreshToken)
        let refused = CallRecorder()
        let metrics = NetworkMetricsPlugin { metrics, _, _ in
            if metrics.attempts.first?.statusCode == 401 { refused.record(.send) }
        }
        let provider = provider([metrics])
        let pages = try await withThrowingTaskGroup(of: NotesPage.self) { group in
            for page in 1...12 {
                group.addTask { try await provider.request(.notes(page: page, perPage: 2), as: NotesPage.self) }
            }
            return try await group.reduce(into: [NotesPage]()) { $0.append($1) }
        }
        let count = refreshes.events.count
        print(
            "   12 concurrent requests: \(pages.count) succeeded, \(refused.events.count) first refused with an expired token,"
        )
        print("   \(count) refresh\(count == 1 ? "" : "es") for all of them\n")
    }

    /// 3. A 503 retried by the retry policy.
    func retriedUnavailable() async throws {
        print("3. A 503, retried")
        let attempts = CallRecorder()
        let counter = NetworkMetricsPlugin { metrics, _, _ in
            for attempt in metrics.attempts {
                attempts.record(.retry(attempt: attempt.number, .success(attempt.statusCode ?? 0)))
            }
        }
        let status = try await provider([counter]).request(.status).mapString(atKeyPath: "status")
        let codes = attempts.events.map { "\($0)".components(separatedBy: "(").last!.dropLast() }
        print(
            "   status \"\(status)\" after \(codes.count) attempts, answered \(codes.joined(separator: " then ")) (retries: \(codes.count - 1))\n"
        )
    }

    /// 4. The exact order of the hooks of a request whose token has expired.
    func hookOrder() async throws {
        print("4. Hook order of a request that is refreshed and retried")
        let current = try require(authentication.credential)
        authentication.credential = TokenPair(accessToken: "expired", refreshToken: current.refreshToken)
        let recorder = CallRecorder()
        let provider = Provider<NotesAPI>(
            endpointClosure: NotesService.endpoints(at: baseURL),
            plugins: [RecordingPlugin("Logger", recorder: recorder), RecordingPlugin("Metrics", recorder: recorder)],
            interceptor: Interceptor(interceptors: [RecordingInterceptor(recorder: recorder), authentication]))
        _ = try await provider.request(.notes(page: 3, perPage: 2))
        let events = recorder.events
        let refreshCall = Self.refreshCall(in: events)
        for (index, event) in events.enumerated() {
            if index == refreshCall.lowerBound {
                print("       the refresh call, sent by the authenticator through this same provider:")
            }
            let number = "\(index + 1).".padding(toLength: 4, withPad: " ", startingAt: 0)
            print("   \(number)\(refreshCall.contains(index) ? "   " : "")\(event)")
        }
        print("   Indented: the refresh call's own hooks, between retry#1 and the second attempt.\n")
    }

    /// The events of the refresh call: after the `retry` that started it, before the plugins
    /// hear `didRefreshCredential`.
    static func refreshCall(in events: [HookEvent]) -> Range<Int> {
        guard
            let refreshed = events.firstIndex(where: {
                if case .didRefreshCredential = $0 { true } else { false }
            }),
            let retry = events[..<refreshed].lastIndex(where: { if case .retry = $0 { true } else { false } })
        else { return 0..<0 }
        return (retry + 1)..<refreshed
    }

    /// 5. A multipart upload and a download, each with a live progress bar.
    func transfers() async throws {
        print("5. An upload and a download, with progress")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let attachment = folder.appendingPathComponent("photo.jpg")
        try Data(repeating: 0xFF, count: 4 << 20).write(to: attachment)

        let upload = try await ProgressBar.follow(
            "upload  ", provider().requestWithProgress(.attach(noteID: 101, file: attachment)))
        print("   uploaded: the server received \(try upload.map(Int.self, atKeyPath: "bytes")) bytes")
        let destination = folder.appendingPathComponent("downloads/report.pdf")
        let download = try await ProgressBar.follow(
            "download", provider().requestWithProgress(.download(name: "report.pdf", destination: destination)))
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int ?? 0
        print("   saved \(size >> 20) MiB to \(download.fileURL?.lastPathComponent ?? "?")")
    }

    /// 6. An assistant's answer streamed token by token through the same pipeline (token,
    /// plugins, validation), printed as it arrives and summarised by the logger at the end.
    func streamedAnswer() async throws {
        print("\n6. A streamed answer, token by token (Server-Sent Events)")
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, entries in
                for entry in entries where entry.contains("Stream #") { print("\n   \(entry)") }
            }))
        print("   ", terminator: "")
        var answer = ""
        let events = provider([logger]).events(.assistant(prompt: "What is Courier?"), until: .data("[DONE]"))
        for try await event in events {
            answer += event.data
            print(event.data, terminator: "")
            fflush(nil)
        }
        print("   streamed: \(answer)")
    }

    /// 7. A WebSocket target of the same enum, signed by the same interceptor, its messages
    /// decoded: on a scripted peer, since URLSession on Linux cannot open sockets (the
    /// AsyncHTTPClient add-on can).
    func liveUpdates() async throws {
        print("\n7. Live updates over a WebSocket (a scripted peer)")
        let recorder = CallRecorder()
        let stubbed = Provider<NotesAPI>(
            endpointClosure: NotesService.endpoints(at: baseURL), stubClosure: Provider.immediatelyStub,
            plugins: [RecordingPlugin("Logger", recorder: recorder)], interceptor: authentication)
        let socket = try await stubbed.webSocket(.live)
        try await socket.send(["subscribe": "notes"])
        for try await note in socket.messages(as: Note.self) { print("   live: note #\(note.id): \(note.text)") }
        print("   closed with \(socket.closeCode?.code.description ?? "no code")")
        print("   hooks: " + recorder.events.map(\.description).joined(separator: ", "))
        do {
            _ = try await provider().webSocket(.live)
        } catch {
            print("   with URLSessionTransport: \(error)")
        }
    }

    /// 8. Notes written where the network may fail: an outbox stores each before `enqueue`
    /// returns, then sends them in order, signed by the same interceptor at the moment they go,
    /// each with its own `Idempotency-Key`; each outcome is reported until acknowledged.
    func offlineNotes() async throws {
        print("\n8. Notes that must arrive, through an outbox")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tour-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = try provider().outbox(named: "notes", in: folder)
        for text in ["Written in a tunnel", "Written just before the app was closed"] {
            let entry = try await outbox.enqueue(.create(NewNote(text: text)))
            print("   stored \"\(text)\" (key \(entry.idempotencyKey.prefix(8))…)")
        }
        var ended = 0
        for await outcome in outbox.outcomes {
            print("   \(outcome.kind) after \(outcome.attempts) try: HTTP \(outcome.statusCode ?? 0)")
            try await outbox.acknowledge(outcome)
            ended += 1
            if ended == 2 { break }
        }
        await outbox.close()
    }

    private func require(_ credential: TokenPair?) throws -> TokenPair {
        guard let credential else { throw AuthenticationError.missingCredential }
        return credential
    }
}

/// A progress bar: redrawn in place in a terminal, a line per quarter otherwise (a CI log).
enum ProgressBar {
    /// Draws each report of `reports` and returns the response that ends them.
    static func follow(_ label: String, _ reports: AsyncThrowingStream<ProgressResponse, any Error>) async throws
        -> Response
    {
        let live = isatty(STDOUT_FILENO) == 1
        var drawn = -1
        for try await report in reports {
            let percent = Int(report.progress * 100)
            let step = live ? percent : percent / 25 * 25
            if step != drawn {
                drawn = step
                let filled = step / 5
                let bar =
                    "   \(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 20 - filled))] \(step)%"
                if live {
                    print("\r" + bar, terminator: "")
                    fflush(nil)
                } else {
                    print(bar)
                }
            }
            if let response = report.response {
                if live { print() }
                return response
            }
        }
        throw CourierError.cancelled
    }
}
