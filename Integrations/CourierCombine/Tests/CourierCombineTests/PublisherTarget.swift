import Courier
import Foundation

/// A target against the tests' loopback server.
struct PublisherTarget: TargetType {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var sampleData: Data { Data(#"{"login":"octocat"}"#.utf8) }
}

/// A decoded user.
struct User: Decodable, Equatable {
    let login: String
}
