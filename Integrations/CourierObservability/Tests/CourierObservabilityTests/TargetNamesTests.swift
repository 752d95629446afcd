import Courier
import Foundation
import Testing

@testable import CourierObservability

@Suite("TargetNames")
struct TargetNamesTests {
    private enum Shop: TargetType {
        case item(id: Int)
        case list

        var baseURL: URL { URL(string: "https://shop.example")! }
        var path: String { "/items" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    private struct Plain: TargetType {
        var baseURL: URL { URL(string: "https://shop.example")! }
        var path: String { "/plain" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// A target that names its cases, with a name reflection would not give (to tell them apart).
    private enum Named: NamedTarget {
        case item(id: Int)

        var caseName: String { "itemByID" }
        var baseURL: URL { URL(string: "https://shop.example")! }
        var path: String { "/items" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    @Test("a NamedTarget is named by its own caseName, never kept per request, and so is a wrapped one")
    func namedTarget() {
        let names = TargetNames()
        let request = RequestID(sequence: 1)
        #expect(names.name(of: Named.item(id: 3), request: request) == "Named.itemByID")
        #expect(names.name(of: MultiTarget(Named.item(id: 4))) == "Named.itemByID")
        #expect(names.keptRequests == 0)
        #expect(RequestLabels.target(MultiTarget(Named.item(id: 5))) == "Named.itemByID")
    }

    @Test("an enum's case is named once per request and forgotten with it; a struct is never kept")
    func keptPerRequest() {
        let names = TargetNames()
        let first = RequestID(sequence: 1)
        let second = RequestID(sequence: 2)
        #expect(names.name(of: Shop.item(id: 7), request: first) == "Shop.item")
        #expect(names.name(of: Shop.item(id: 8), request: first) == "Shop.item")
        #expect(names.name(of: Shop.list, request: second) == "Shop.list")
        #expect(names.keptRequests == 2)
        #expect(names.name(of: Plain(), request: RequestID(sequence: 3)) == "Plain")
        #expect(names.keptRequests == 2)
        names.forget(first)
        names.forget(second)
        #expect(names.keptRequests == 0)
        #expect(names.name(of: MultiTarget(Shop.item(id: 1)), request: first) == "Shop.item")
    }
}
