import Courier
import Foundation
import Testing

@Suite("Response")
struct ResponseTests {
    private func response(_ body: String, status: Int = 200) -> Response {
        Response(statusCode: status, data: Data(body.utf8))
    }

    @Test("filters accept their codes and throw .statusCode with the response otherwise")
    func filters() throws {
        #expect(try response("", status: 204).filterSuccessfulStatusCodes().statusCode == 204)
        #expect(try response("", status: 304).filterSuccessfulStatusAndRedirectCodes().statusCode == 304)
        #expect(try response("", status: 418).filter(statusCode: 418).statusCode == 418)
        #expect(try response("", status: 418).filter(statusCodes: 400..<500).statusCode == 418)
        #expect { try response("", status: 302).filterSuccessfulStatusCodes() } throws: {
            guard case .statusCode(let response) = $0 as? CourierError else { return false }
            return response.statusCode == 302
        }
        #expect(throws: CourierError.self) { try response("", status: 500).filterSuccessfulStatusAndRedirectCodes() }
    }

    @Test("map decodes the whole body")
    func mapWhole() throws {
        let user = try Response(statusCode: 200, data: Fixture.data("user")).map(User.self)
        #expect(user == User(id: 1, login: "octocat", profile: .init(name: "The Octocat", followers: 42)))
    }

    @Test("map follows dotted key paths, with array indexes, on every platform")
    func mapKeyPath() throws {
        let body = Response(statusCode: 200, data: Fixture.data("user"))
        #expect(try body.map(String.self, atKeyPath: "profile.name") == "The Octocat")
        #expect(try body.map(Int.self, atKeyPath: "profile.followers") == 42)
        #expect(try body.map([String].self, atKeyPath: "profile.tags") == ["a", "b"])
        #expect(try body.map(String.self, atKeyPath: "profile.tags.1") == "b")
        #expect(try body.mapString(atKeyPath: "login") == "octocat")
    }

    @Test("a missing key path is .keyPathNotFound")
    func missingKeyPath() {
        let body = Response(statusCode: 200, data: Fixture.data("user"))
        #expect { try body.map(String.self, atKeyPath: "profile.missing") } throws: {
            guard case .keyPathNotFound("profile.missing", _) = $0 as? CourierError else { return false }
            return true
        }
        #expect { try body.mapString(atKeyPath: "profile.tags.9") } throws: { ($0 as? CourierError)?.stage == .mapping }
    }

    @Test("a type mismatch is .objectMapping carrying the DecodingError")
    func objectMapping() {
        #expect { try response(#"{"id":"one"}"#).map(User.self) } throws: {
            guard case .objectMapping(let error, let response) = $0 as? CourierError else { return false }
            return error is DecodingError && response.statusCode == 200
        }
    }

    @Test("empty data: an error by default, {} / [] / null otherwise")
    func emptyData() throws {
        struct Empty: Decodable, Equatable {}
        #expect(throws: CourierError.self) { try response("").map(Empty.self) }
        #expect(try response("").map(Empty.self, failsOnEmptyData: false) == Empty())
        #expect(try response("").map([Int].self, failsOnEmptyData: false) == [])
        #expect(try response("").map(Int?.self, failsOnEmptyData: false) == nil)
        #expect(try response("").mapJSON(failsOnEmptyData: false) is NSNull)
    }

    @Test("mapJSON parses objects and fragments; non-JSON is .jsonMapping")
    func mapJSON() throws {
        let object = try response(#"{"a":1}"#).mapJSON() as? [String: Any]
        #expect(object?["a"] as? Int == 1)
        #expect(try response("42").mapJSON() as? Int == 42)
        #expect { try response("<html>").mapJSON() } throws: {
            guard case .jsonMapping(let response) = $0 as? CourierError else { return false }
            return response.data == Data("<html>".utf8)
        }
    }

    @Test("mapString: UTF-8 body, or .stringMapping for anything else")
    func mapString() throws {
        #expect(try response("héllo").mapString() == "héllo")
        let binary = Response(statusCode: 200, data: Data([0xFF, 0xFE, 0xFD]))
        #expect { try binary.mapString() } throws: {
            guard case .stringMapping = $0 as? CourierError else { return false }
            return true
        }
        #expect { try response(#"{"n":1}"#).mapString(atKeyPath: "n") } throws: {
            guard case .stringMapping = $0 as? CourierError else { return false }
            return true
        }
        #expect { try response("not json").mapString(atKeyPath: "a") } throws: {
            guard case .jsonMapping = $0 as? CourierError else { return false }
            return true
        }
    }

    @Test("description names status and size")
    func description() {
        #expect(response("abc", status: 201).description == "Status Code: 201, Data Length: 3")
    }
}
