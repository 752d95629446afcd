import Courier
import Foundation

/// A stubbed target whose whole request may take at most `total` seconds.
struct TotalLimited: TargetType {
    var total: TimeInterval = 0.2
    var baseURL: URL { URL(string: "https://example.com")! }
    var path: String { "/slow" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var totalTimeoutInterval: TimeInterval? { total }
}
