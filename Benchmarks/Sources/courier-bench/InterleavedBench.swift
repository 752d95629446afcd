import Foundation

/// `sequential-blocks` and `concurrent-blocks`: Courier and raw `data(for:)` on Courier's
/// configuration in one process, in alternating blocks (Courier then raw, raw then Courier, and so
/// on). Separate runs a second apart see this shared machine's load change between them (a
/// variant's rate moves by ±30% from run to run here); blocks of a fraction of a second,
/// interleaved, see the same load, so their ratio measures the two paths rather than the moment.
/// Each variant's figures are the totals of its blocks.
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

    /// Runs `count` small GETs per variant, in `blocks` blocks each, `width` at a time.
    /// - Returns: One result per variant (`courier`, `raw`).
    static func blocks(
        _ name: String, _ baseURL: URL, count: Int, width: Int, blocks: Int = 20
    ) async throws -> [MeasurementResult] {
        let clients = [try Client("courier"), try Client("raw")]
        for client in clients {
            for _ in 0..<100 { _ = try await client.get(baseURL, "small.json") }
        }
        let perBlock = max(1, count / blocks)
        var tallies = [Tally(), Tally()]
        for block in 0..<blocks {
            // Each variant goes first in half the blocks.
            for index in block % 2 == 0 ? [0, 1] : [1, 0] {
                let (start, startCPU) = (now(), cpuSeconds())
                try await HTTPBench.inFlight(width, count: perBlock, clients[index], baseURL)
                tallies[index].seconds += now() - start
                tallies[index].cpuSeconds += cpuSeconds() - startCPU
                tallies[index].requests += perBlock
            }
        }
        return [
            MeasurementResult(name: name, variant: "courier", figures: tallies[0].figures),
            MeasurementResult(name: name, variant: "raw", figures: tallies[1].figures),
        ]
    }
}
