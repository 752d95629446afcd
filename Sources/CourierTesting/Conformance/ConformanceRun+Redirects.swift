import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The redirect cases.
extension ConformanceRun {
    func performRedirectCase() async throws {
        switch testCase {
        case .redirectReturned: try await redirectReturned()
        case .redirectMethods: try await redirectMethods()
        case .redirectLoop: try await redirectLoop()
        case .redirectCrossOrigin: try await redirectCrossOrigin()
        default: throw fail("not a redirect case")
        }
    }

    private func redirectReturned() async throws {
        let server = try LoopbackServer { request in
            request.path == "/moved"
                ? ServerReply(status: 302, headers: ["Location": "/end"], body: Data("moved".utf8)) : .text("end")
        }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "moved")))
        try expect(
            response.statusCode == 302, "a 302 came back as status \(response.statusCode): the engine followed it")
        try expect(
            response.headerFields["Location"] == "/end",
            "the 302's Location came back as \(response.headerFields["Location"] ?? "nothing")")
        try expect(server.requests.count == 1, "the engine sent \(server.requests.count) requests for one redirect")
    }

    private func redirectMethods() async throws {
        let server = try LoopbackServer { request in
            if let status = Int(request.path.dropFirst()) {
                return ServerReply(status: status, headers: ["Location": "/end"])
            }
            return .text("\(request.method) \(request.body.count)")
        }
        let body = Data(repeating: 42, count: 1000)
        for (status, expected) in [
            (301, "GET 0"), (302, "GET 0"), (303, "GET 0"), (307, "POST 1000"), (308, "POST 1000"),
        ] {
            let response = try await send(
                TransportRequest(urlRequest: Self.request(server, "\(status)", method: "POST", body: body)),
                throughStages: true)
            let answer = String(decoding: response.data, as: UTF8.self)
            try expect(
                response.statusCode == 200 && answer == expected,
                "a POST redirected by \(status) arrived as \(answer.debugDescription) (status \(response.statusCode)), expected \(expected)"
            )
        }
    }

    private func redirectLoop() async throws {
        let server = try LoopbackServer { request in ServerReply(status: 302, headers: ["Location": request.path]) }
        let error = try await failure(
            of: TransportRequest(urlRequest: Self.request(server, "loop")), throughStages: true)
        try expect(Self.kind(of: error) == .tooManyRedirects, "a redirect loop ended with \(error)")
        try expect(server.requests.count <= 21, "the loop was followed \(server.requests.count) times")
    }

    private func redirectCrossOrigin() async throws {
        let other = try LoopbackServer { _ in .text("other") }
        let server = try LoopbackServer { request in
            switch request.path {
            case "/away": ServerReply(status: 302, headers: ["Location": "http://localhost:\(other.port)/end"])
            case "/near": ServerReply(status: 307, headers: ["Location": "/end"])
            default: .text("same")
            }
        }
        let credentials = ["Authorization": "Bearer conformance-secret", "Cookie": "sid=conformance", "X-Keep": "1"]
        _ = try await send(
            TransportRequest(urlRequest: Self.request(server, "away", headers: credentials)), throughStages: true)
        guard let arrived = other.requests.first else { throw fail("the cross-origin redirect was not followed") }
        for name in ["Authorization", "Cookie"] {
            try expect(arrived.header(name) == nil, "\(name) reached the other origin")
        }
        try expect(arrived.header("X-Keep") == "1", "a plain header was dropped on the cross-origin redirect")
        _ = try await send(
            TransportRequest(urlRequest: Self.request(server, "near", headers: credentials)), throughStages: true)
        let same = server.requests.last { $0.path == "/end" }
        try expect(
            same?.header("Authorization") == "Bearer conformance-secret",
            "Authorization was dropped on a same-origin redirect")
    }
}
