import Foundation

/// `sequential-blocks` and `concurrent-blocks`: Courier, raw `data(for:)` and a raw
/// completion-handler task, all on Courier's configuration, in one process, in interleaved blocks
/// (each order of the three in turn). Separate runs a second apart see this shared machine's load
/// change between them (a variant's rate moves by ±30% from run to run here); blocks of a fraction
/// of a second, interleaved, see the same load, so their ratios measure the paths rather than the
/// moment. Each variant's figures are the totals of its blocks.
///
/// The completion-handler task is the cheapest route FoundationNetworking 6.3 gives a caller that
/// must be able to cancel: `data(for:)` resumes its caller straight from URLSession's work queue
/// (an internal flag no public API sets), where every public route first hops onto the session's
/// delegate queue. So `courier ÷ raw-completion` is Courier's own cost, and
/// `raw-completion ÷ raw` FoundationNetworking's hop (Benchmarks/README).
enum InterleavedBench {
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

    /// The variants, in the order of their results.
    static let variants = ["courier", "raw", "raw-completion"]
    /// Every order of the three variants: block `n` runs them in `orders[n % 6]`, so that each
    /// goes first, second and last equally often over 24 blocks.
    private static let orders = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 0, 2]]

    /// Runs `count` small GETs per variant, in `blocks` blocks each, `width` at a time.
    /// - Returns: One result per variant, named as in ``variants``.
    static func blocks(
        _ name: String, _ baseURL: URL, count: Int, width: Int, blocks: Int = 24
    ) async throws -> [MeasurementResult] {
        let clients = try variants.map { try Client($0) }
        for client in clients {
            for _ in 0..<100 { _ = try await client.get(baseURL, "small.json") }
        }
        let perBlock = max(1, count / blocks)
        var tallies = Array(repeating: Tally(), count: clients.count)
        for block in 0..<blocks {
            for index in orders[block % orders.count] {
                let (start, startCPU) = (now(), cpuSeconds())
                try await HTTPBench.inFlight(width, count: perBlock, clients[index], baseURL)
                tallies[index].seconds += now() - start
                tallies[index].cpuSeconds += cpuSeconds() - startCPU
                tallies[index].requests += perBlock
            }
        }
        return zip(variants, tallies).map { MeasurementResult(name: name, variant: $0, figures: $1.figures) }
    }
}
