import Foundation

/// `ahc-sequential-blocks` and `ahc-concurrent-blocks`: Courier and raw AsyncHTTPClient, one
/// request at a time or 32 in flight, in one process, in alternating blocks (Courier then raw,
/// raw then Courier, and so on) on the same client and connection pool. Separate runs a second
/// apart see this shared machine's load change between them; blocks of a fraction of a second,
/// interleaved, see the same load, so their ratio measures the two paths rather than the moment.
/// Each variant's figures are its blocks' totals.
enum Interleaved {
    private struct Tally {
        var seconds = 0.0
        var cpuSeconds = 0.0
        var requests = 0

        var figures: [String: Double] {
            [
                "requests_per_second": Double(requests) / seconds,
                "cpu_us_per_request": cpuSeconds / Double(requests) * 1e6,
            ]
        }
    }

    /// Runs `count` requests per variant, in `blocks` blocks each, `width` at a time.
    /// - Returns: Each variant's figures, by variant name (`courier`, `raw`).
    static func blocks(
        _ baseURL: URL, count: Int, width: Int, blocks: Int = 20
    ) async throws -> [String: [String: Double]] {
        let variants = [("courier", try Getter("courier")), ("raw", try Getter("raw"))]
        for (_, getter) in variants {
            for _ in 0..<100 { _ = try await getter.get(baseURL, "small.json") }
        }
        let perBlock = max(1, count / blocks)
        var tallies = [Tally(), Tally()]
        for block in 0..<blocks {
            // Each variant goes first in half the blocks.
            for index in block % 2 == 0 ? [0, 1] : [1, 0] {
                let (start, startCPU) = (now(), Requests.cpuSeconds())
                try await Requests.inFlight(width, count: perBlock, variants[index].1, baseURL)
                tallies[index].seconds += now() - start
                tallies[index].cpuSeconds += Requests.cpuSeconds() - startCPU
                tallies[index].requests += perBlock
            }
        }
        return [variants[0].0: tallies[0].figures, variants[1].0: tallies[1].figures]
    }
}
