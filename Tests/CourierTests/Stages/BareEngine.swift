import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An engine written as a user would: `send` only, no capabilities, no redirect following,
/// no cookies, no timeouts. It answers each path from a table and records what it was sent.
final class BareEngine: Transport {
    let sent = Locked<[URLRequest]>([])
    let table: [String: (status: Int, headers: [String: String])]
    let slowPaths: Set<String>

    init(_ table: [String: (status: Int, headers: [String: String])], slowPaths: Set<String> = []) {
        self.table = table
        self.slowPaths = slowPaths
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        sent.withLock { $0.append(request.urlRequest) }
        let url = request.urlRequest.url!
        if slowPaths.contains(url.path) {
            // Ignores its timeout and its cancellation, as a careless engine would.
            try? await Task.sleep(nanoseconds: 5_000_000_000)
        }
        let (status, headers) = table[url.absoluteString] ?? (200, [:])
        return TransportResponse(
            statusCode: status, headerFields: HeaderFields(headers), url: url, data: Data("\(url.path)".utf8))
    }
}
