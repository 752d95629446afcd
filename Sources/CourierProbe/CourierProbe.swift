import Courier
import Foundation

/// Sends one GET through a `Provider` and prints its outcome on one line, for tests that must
/// survive what the request might do to its process: `courier-probe <url>` prints
/// `success <status>` or `failure <stage> <transport kind>`.
///
/// It exists because on Linux toolchains up to 6.3.1 a server that closes the connection in the
/// middle of the response headers makes FoundationNetworking stop the process with a fatal error
/// (swift-corelibs-foundation #5285), which nothing in the process can catch.
@main
struct CourierProbe {
    struct Target: TargetType {
        let baseURL: URL
        var path: String { "" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var timeoutInterval: TimeInterval? { 5 }
    }

    static func main() async {
        guard CommandLine.arguments.count == 2, let url = URL(string: CommandLine.arguments[1]) else {
            print("usage: courier-probe <url>")
            exit(2)
        }
        do {
            let response = try await Provider<Target>().request(Target(baseURL: url))
            print("success \(response.statusCode)")
        } catch {
            let kind = (error.underlyingError as? TransportFailure)?.kind.rawValue ?? "-"
            print("failure \(error.stage.rawValue) \(kind)")
        }
    }
}
