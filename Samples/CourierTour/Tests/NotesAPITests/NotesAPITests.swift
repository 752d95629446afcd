import Courier
import CourierTesting
import Foundation
import NotesAPI
import NotesServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The consumer's view: only the public API of Courier and CourierTesting, against the sample's
/// local server.
@Suite("NotesAPI")
struct NotesAPITests {
    /// A signed-in session: the server, the interceptor holding the tokens, and a recorder.
    struct Session {
        let server: NotesServer
        let authentication: AuthenticationInterceptor<NotesAuthenticator>
        let recorder = CallRecorder()

        init() async throws {
            server = try NotesServer(tokenLifetime: 10)
            authentication = NotesService.authentication(credential: nil)
            let signIn = Provider<NotesAPI>(endpointClosure: NotesService.endpoints(at: server.baseURL))
            authentication.credential = try await signIn.request(
                .login(username: "ann", password: "secret"), as: TokenPair.self)
        }

        /// A provider whose plugin and interceptor calls land in `recorder`.
        var provider: Provider<NotesAPI> {
            Provider<NotesAPI>(
                endpointClosure: NotesService.endpoints(at: server.baseURL),
                plugins: [RecordingPlugin("Logger", recorder: recorder)],
                interceptor: Interceptor(interceptors: [RecordingInterceptor(recorder: recorder), authentication]))
        }
    }

    @Test("a request's hooks run in the documented order, and its page decodes")
    func hookOrder() async throws {
        let session = try await Session()
        defer { session.server.stop() }

        let page = try await session.provider.request(.notes(page: 1, perPage: 2), as: NotesPage.self)

        #expect(page == NotesPage(page: 1, notes: [Note(id: 11, text: "Buy milk"), Note(id: 12, text: "Call Ann")]))
        #expect(
            session.recorder.events == [
                .prepare("Logger"), .willSend("Logger", attempt: 1), .adapt(attempt: 1),
                .didReceive("Logger", .success(200)), .process("Logger", .success(200)),
            ])
    }

    @Test("an expired token is refreshed and the request retried, in the documented order")
    func refreshedAndRetried() async throws {
        let session = try await Session()
        defer { session.server.stop() }
        let signedIn = try #require(session.authentication.credential)
        session.authentication.credential = TokenPair(accessToken: "expired", refreshToken: signedIn.refreshToken)

        let note = try await session.provider.request(.create(NewNote(text: "hi")), as: Note.self)

        #expect(note.text == "hi")
        #expect(session.server.refreshCount == 1)
        #expect(session.authentication.credential?.accessToken == "access-2")
        #expect(
            session.recorder.events == [
                .prepare("Logger"), .willSend("Logger", attempt: 1), .adapt(attempt: 1),
                .retry(attempt: 1, .failure(.validation)),
                // The refresh call, through the same provider: its own hooks, nested in the retry.
                .prepare("Logger"), .willSend("Logger", attempt: 1), .adapt(attempt: 1),
                .didReceive("Logger", .success(200)), .process("Logger", .success(200)),
                // The refresh is over: every plugin of the refreshing provider hears it once.
                .didRefreshCredential("Logger", succeeded: true),
                .prepare("Logger"), .willSend("Logger", attempt: 2), .adapt(attempt: 2),
                .didReceive("Logger", .success(201)), .process("Logger", .success(201)),
            ])
    }

    @Test("a Provider<MultiTarget> refreshing through itself: 8 concurrent expired requests, one refresh, all succeed")
    func multiTargetRefresh() async throws {
        let session = try await Session()
        defer { session.server.stop() }
        let signedIn = try #require(session.authentication.credential)
        session.authentication.credential = TokenPair(accessToken: "expired", refreshToken: signedIn.refreshToken)
        let refreshed = CallRecorder()
        let authentication = AuthenticationInterceptor(
            authenticator: NotesAuthenticator(), credential: session.authentication.credential,
            onRefresh: { _, _ in refreshed.record(.send) })
        let endpoints = NotesService.endpoints(at: session.server.baseURL)
        let provider = Provider<MultiTarget>(
            endpointClosure: { target in endpoints(target.underlyingTarget(as: NotesAPI.self)!) },
            interceptor: authentication)

        let pages = try await withThrowingTaskGroup(of: Int.self) { group in
            for page in 1...8 {
                group.addTask {
                    try await provider.request(MultiTarget(NotesAPI.notes(page: page, perPage: 1)), as: NotesPage.self)
                        .page
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }

        #expect(pages == Set(1...8))
        #expect(session.server.refreshCount == 1)
        #expect(refreshed.events == [.send])
        #expect(authentication.credential?.accessToken == "access-2")
    }

    @Test("a 503 is retried by the retry policy")
    func retried() async throws {
        let session = try await Session()
        defer { session.server.stop() }
        let provider = NotesService.makeProvider(
            baseURL: session.server.baseURL, authentication: session.authentication)
        #expect(try await provider.request(.status).mapString(atKeyPath: "status") == "ok")
    }

    @Test("creating a note sends JSON; a stubbed 404 fails validation with its response")
    func scripted() async throws {
        let transport = ScriptedTransport()
        transport.enqueue([.json(201, #"{"id":7,"text":"hi"}"#)], for: NotesAPI.create(NewNote(text: "hi")))
        let provider = Provider<NotesAPI>(transport: transport)
        #expect(try await provider.request(.create(NewNote(text: "hi")), as: Note.self) == Note(id: 7, text: "hi"))
        #expect(transport.requests.first?.httpBody == Data(#"{"text":"hi"}"#.utf8))
        await #expect {
            try await provider.request(.status)
        } throws: {
            ($0 as? CourierError)?.underlyingError is ScriptedTransportError
        }
    }

    @Test("wrong credentials are refused with the server's 401")
    func badLogin() async throws {
        let server = try NotesServer()
        defer { server.stop() }
        let provider = Provider<NotesAPI>(endpointClosure: NotesService.endpoints(at: server.baseURL))
        await #expect {
            try await provider.request(.login(username: "ann", password: "nope"))
        } throws: {
            ($0 as? CourierError)?.response?.statusCode == 401
        }
    }

    @Test("the assistant's stubbed answer streams token by token, offline, through the same hooks")
    func stubbedAssistant() async throws {
        let recorder = CallRecorder()
        let provider = Provider<NotesAPI>(
            stubClosure: Provider.immediatelyStub, plugins: [RecordingPlugin("Logger", recorder: recorder)])

        var tokens: [String] = []
        for try await event in provider.events(.assistant(prompt: "?"), until: .data("[DONE]")) {
            tokens.append(event.data)
        }

        #expect(tokens == ["Notes ", "are ", "saved."])
        #expect(recorder.events.last == .didFinishStream("Logger", .completed))
    }

    @Test("the assistant's answer from the server arrives whole, and the terminator closes the stream")
    func streamedAssistant() async throws {
        let session = try await Session()
        defer { session.server.stop() }

        var answer = ""
        for try await event in session.provider.events(.assistant(prompt: "?"), until: .data("[DONE]")) {
            answer += event.data
        }

        #expect(answer == "Courier streams every token through the same pipeline.")
        #expect(session.recorder.events.last == .didFinishStream("Logger", .completed))
    }

    @Test(
        "notes written through an outbox are created in order, signed by the session's interceptor, each outcome with its answer"
    )
    func outbox() async throws {
        let session = try await Session()
        defer { session.server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = try session.provider.outbox(named: "notes", in: folder)
        for text in ["one", "two", "three"] { _ = try await outbox.enqueue(.create(NewNote(text: text))) }
        var created: [Note] = []
        for await outcome in outbox.outcomes {
            #expect(outcome.kind == .delivered)
            created.append(try JSONDecoder().decode(Note.self, from: outcome.body))
            try await outbox.acknowledge(outcome)
            if created.count == 3 { break }
        }
        #expect(created.map(\.text) == ["one", "two", "three"])
        await outbox.close()
    }
}
