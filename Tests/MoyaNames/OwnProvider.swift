// An app with its own type named `Provider` that wraps Moya's: `.ci/run` applies the
// `MoyaProvider` fix-it to it (`Courier.Provider`) and type-checks the result, which must not
// refer to the app's own type. It is not part of any target.
import Courier
import Foundation

enum API: TargetType {
    case zen
    var baseURL: URL { URL(string: "https://example.com")! }
    var path: String { "/zen" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// The app's own provider, wrapping Moya's.
struct Provider<Target: TargetType> {
    let moya: MoyaProvider<Target>
}

let app = Provider<API>(moya: MoyaProvider<API>())
