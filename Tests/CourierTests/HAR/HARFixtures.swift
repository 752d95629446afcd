import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An API whose endpoints carry secrets everywhere a real one does: a token in the query and in
/// `Authorization`, a password in a JSON body, tokens and a session cookie in answers.
struct Vault: TargetType, NamedTarget {
    enum Call {
        case profile
        case login
        case moved
        case flaky
        case report
        case events
        case upload(URL)
    }

    let baseURL: URL
    let call: Call

    init(_ baseURL: URL, _ call: Call) {
        self.baseURL = baseURL
        self.call = call
    }

    var path: String {
        switch call {
        case .profile: "/profile"
        case .login: "/login"
        case .moved: "/moved"
        case .flaky: "/flaky"
        case .report: "/report.bin"
        case .events: "/events"
        case .upload: "/upload"
        }
    }
    var method: HTTPMethod {
        switch call {
        case .login, .upload: .post
        default: .get
        }
    }
    var task: HTTPTask {
        switch call {
        case .profile:
            .requestParameters(
                parameters: ["access_token": "QUERY-SECRET-1", "page": 2], encoding: URLEncoding.queryString)
        case .login: .requestJSONEncodable(["user": "ann", "password": "BODY-SECRET-2"])
        case .upload(let file): .uploadFile(file)
        default: .requestPlain
        }
    }
    var headers: [String: String]? { ["Authorization": "Bearer HEADER-SECRET-3", "Accept": "application/json"] }
    var validationType: ValidationType { .successCodes }
    var caseName: String {
        switch call {
        case .profile: "profile"
        case .login: "login"
        case .moved: "moved"
        case .flaky: "flaky"
        case .report: "report"
        case .events: "events"
        case .upload: "upload"
        }
    }

    /// Every secret the API's traffic carries.
    static let secrets = [
        "QUERY-SECRET-1", "BODY-SECRET-2", "HEADER-SECRET-3", "ANSWER-SECRET-4", "COOKIE-SECRET-5", "TOKEN-SECRET-6",
    ]

    /// The binary report's bytes (not UTF-8).
    static let reportBytes = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 0x80) })

    /// The server of the API. With `firstEventRead`, the event stream's second event waits until
    /// it is signalled (the client read the first; at most 5 s), then 50 ms more: the two events
    /// reach the client as two chunks however late the client reads.
    static func server(firstEventRead: DispatchSemaphore? = nil) throws -> LoopbackServer {
        let flaky = Locked(0)
        return try LoopbackServer { request in
            switch request.path {
            case "/profile":
                var reply = ServerReply.json(#"{"login":"ann","token":"ANSWER-SECRET-4"}"#)
                reply.headers["Set-Cookie"] = "session=COOKIE-SECRET-5; Path=/"
                return reply
            case "/login": return .json(#"{"access_token":"TOKEN-SECRET-6","expires_in":3600}"#)
            case "/moved": return ServerReply(status: 302, headers: ["Location": "/profile?page=2"])
            case "/flaky":
                let count = flaky.withLock { count in
                    count += 1
                    return count
                }
                return count == 1 ? ServerReply(status: 503) : .text("fine")
            case "/report.bin":
                return ServerReply(headers: ["Content-Type": "application/octet-stream"], body: reportBytes)
            case "/events":
                return .raw([
                    .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n".utf8)),
                    .send(Data("data: first\n\n".utf8)),
                    .run { _ = firstEventRead?.wait(timeout: .now() + 5) },
                    .pause(0.05), .send(Data("data: second\n\n".utf8)),
                ])
            case "/upload": return .text("got \(request.body.count)")
            default: return ServerReply(status: 404)
            }
        }
    }

    /// Runs every endpoint through `provider`: what each gave, as text. `firstEventRead` is
    /// signalled when the first event arrives (see ``server(firstEventRead:)``).
    static func scenario(
        _ provider: Provider<Vault>, base: URL, file: URL, firstEventRead: DispatchSemaphore? = nil
    ) async -> [String] {
        var results: [String] = []
        let calls: [Call] = [.profile, .login, .moved, .flaky, .report, .upload(file)]
        for target in calls.map({ Vault(base, $0) }) {
            do {
                let response = try await provider.request(target)
                let body =
                    target.caseName == "report"
                    ? response.data.base64EncodedString() : String(decoding: response.data, as: UTF8.self)
                results.append("\(target.caseName) \(response.statusCode) \(body)")
            } catch {
                results.append("\(target.caseName) failed \(error.stage)")
            }
        }
        do {
            var events: [String] = []
            for try await event in provider.events(Vault(base, .events), reconnection: .never) {
                events.append(event.data)
                if events.count == 1 { firstEventRead?.signal() }
            }
            results.append("events \(events)")
        } catch {
            results.append("events failed \(error)")
        }
        return results
    }
}
