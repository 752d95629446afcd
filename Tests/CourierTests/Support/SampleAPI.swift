import Courier
import Foundation

/// The sample API of the tests: one case per kind of request.
enum SampleAPI: TargetType {
    case user(String)
    case search(query: String, page: Int)
    case create(NewItem)
    case upload(Data)
    case invalidURL

    var baseURL: URL { URL(string: "https://api.example.com/v1")! }

    var path: String {
        switch self {
        case .user(let name): "/users/\(name)"
        case .search: "/search"
        case .create: "/items"
        case .upload: "/blobs"
        case .invalidURL: ""
        }
    }

    var method: HTTPMethod {
        switch self {
        case .create, .upload: .post
        default: .get
        }
    }

    var task: HTTPTask {
        switch self {
        case .user, .invalidURL: .requestPlain
        case .search(let query, let page):
            .requestParameters(parameters: ["q": query, "page": page], encoding: URLEncoding.default)
        case .create(let item): .requestJSONEncodable(item)
        case .upload(let data): .requestData(data)
        }
    }

    var headers: [String: String]? { ["Accept": "application/json"] }
    var validationType: ValidationType { .successCodes }
    var sampleData: Data { Fixture.data("user") }
}

struct NewItem: Codable, Equatable, Sendable {
    let name: String
    let count: Int
}

struct User: Decodable, Equatable {
    struct Profile: Decodable, Equatable {
        let name: String
        let followers: Int
    }
    let id: Int
    let login: String
    let profile: Profile
}

enum Fixture {
    static func data(_ name: String) -> Data {
        let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures")!
        return try! Data(contentsOf: url)
    }
}
