import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small server-side job that calls an upstream API through Courier on AsyncHTTPClient: typed
/// targets, a bearer token refreshed once for many concurrent calls, a retry on 503, and a
/// large export.
///
/// `swift run courier-upstream [base-url]`: without a URL, it starts a stand-in for the upstream
/// on 127.0.0.1 (CourierTesting's `LoopbackServer`), so the sample runs anywhere.
@main
enum UpstreamSample {
    static func main() async throws {
        let upstream = try StandInUpstream()
        let baseURL = CommandLine.arguments.dropFirst().first.flatMap(URL.init(string:)) ?? upstream.baseURL
        let tokens = TokenAuthenticator(baseURL: baseURL)
        let provider = Provider<Upstream>(
            transport: AsyncHTTPClientTransport(),
            interceptor: Interceptor(
                adapters: [],
                retriers: [RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)],
                interceptors: [AuthenticationInterceptor(authenticator: tokens, credential: Token(value: "expired"))]))

        let orders = try await withThrowingTaskGroup(of: Order.self) { group in
            for id in 1...20 {
                group.addTask {
                    try await provider.request(Upstream(baseURL: baseURL, call: .order(id)), as: Order.self)
                }
            }
            var orders: [Order] = []
            for try await order in group { orders.append(order) }
            return orders
        }
        print("fetched \(orders.count) orders, total \(orders.map(\.amount).reduce(0, +))")
        print("token refreshes: \(tokens.refreshes.withLockedValue { $0 })")

        let flaky = try await provider.request(Upstream(baseURL: baseURL, call: .flaky))
        print("flaky endpoint answered \(flaky.statusCode) after \(upstream.flakyCalls) calls")

        let export = try await provider.request(Upstream(baseURL: baseURL, call: .export))
        let lines = String(decoding: export.data, as: UTF8.self).split(separator: "\n")
        print("export: \(lines.count) lines, last \(lines.last ?? "")")
        print("Sample complete.")
    }
}
