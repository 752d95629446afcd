import Courier
import CourierTesting
import Foundation
import NotesAPI
import NotesServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A tour of Courier against a local server that plays a notes API, or a real one with
/// `--base-url URL`.
@main
struct Tour {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        var localServer: NotesServer?
        let baseURL: URL
        if let index = arguments.firstIndex(of: "--base-url"), arguments.indices.contains(index + 1),
            let url = URL(string: arguments[index + 1])
        {
            baseURL = url
        } else {
            do {
                localServer = try NotesServer()
            } catch {
                print("Could not start the local server: \(error)")
                exit(1)
            }
            baseURL = localServer!.baseURL
        }
        print("Courier tour against \(baseURL)\n")
        let succeeded = await run(baseURL: baseURL)
        localServer?.stop()
        exit(succeeded ? 0 : 1)
    }

    static func run(baseURL: URL) async -> Bool {
        do {
            try await loggedRequests(baseURL)
            try await retriedUnavailable(baseURL)
            try await hookOrder(baseURL)
            print("\nTour complete.")
            return true
        } catch {
            print("\nThe tour failed: \(error)")
            return false
        }
    }

    /// 1. Requests with a logging plugin: the cURL command before, the status after.
    static func loggedRequests(_ baseURL: URL) async throws {
        print("1. Logged requests")
        let provider = NotesService.makeProvider(baseURL: baseURL, plugins: [ConsoleLogger()])
        let notes = try await provider.request(.list(page: 1), as: [Note].self)
        print("   decoded \(notes.count) notes: \(notes.map(\.text).joined(separator: ", "))")
        let created = try await provider.request(.create(NewNote(text: "Try Courier")), as: Note.self)
        print("   created note #\(created.id): \(created.text)\n")
    }

    /// 2. A 503 retried by a retrier, with a delay.
    static func retriedUnavailable(_ baseURL: URL) async throws {
        print("2. A 503, retried")
        let attempts = CallRecorder()
        let provider = NotesService.makeProvider(
            baseURL: baseURL, plugins: [RecordingPlugin("log", recorder: attempts)],
            interceptor: NotesService.retryUnavailable)
        let status = try await provider.request(.status).mapString(atKeyPath: "status")
        let sent = attempts.events.count { if case .willSend = $0 { true } else { false } }
        print("   status \"\(status)\" after \(sent) attempts (retries: \(sent - 1))\n")
    }

    /// 3. The exact order in which Courier called the hooks of one retried request.
    static func hookOrder(_ baseURL: URL) async throws {
        print("3. Hook order of a request")
        let recorder = CallRecorder()
        let provider = NotesService.makeProvider(
            baseURL: baseURL,
            plugins: [RecordingPlugin("Logger", recorder: recorder), RecordingPlugin("Metrics", recorder: recorder)],
            interceptor: RecordingInterceptor(recorder: recorder))
        _ = try await provider.request(.list(page: 2))
        for (index, event) in recorder.events.enumerated() {
            print("   \(index + 1). \(event)")
        }
    }
}

/// Prints each attempt as a cURL command and each result as a status line.
struct ConsoleLogger: PluginType {
    func willSend(_ request: PreparedRequest, target: any TargetType) {
        print("   → \(request.cURLDescription())")
    }

    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
        switch result {
        case .success(let response): print("   ← HTTP \(response.statusCode), \(response.data.count) bytes")
        case .failure(let error): print("   ← \(error)")
        }
    }
}
