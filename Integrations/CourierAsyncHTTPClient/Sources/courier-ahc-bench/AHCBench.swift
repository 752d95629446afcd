import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier-ahc-bench <measurement> <variant> <base-url> [count]`: one measurement of Courier on
/// AsyncHTTPClient in this process, printed as one JSON object in the format of Benchmarks/'s
/// `courier-bench`, whose driver (`Benchmarks/run`) runs it side by side with its baselines.
///
/// Variants: `courier` (a `Provider` on `AsyncHTTPClientTransport`), `raw` (`HTTPClient.execute`
/// on the same client configuration), `urlsession` (`URLSession.data(for:)`, ephemeral); for the
/// `ws-` measurements, `courier` and `raw` as ``SocketVariant`` says. `ws-serve` runs their server.
@main
enum AHCBench {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "ws-serve" { try? SocketServer.serve() }
        guard arguments.count >= 3, let baseURL = URL(string: arguments[2]) else {
            FileHandle.standardError.write(
                Data("usage: courier-ahc-bench <measurement> <variant> <base-url> [count]\n".utf8))
            exit(2)
        }
        let (name, variant) = (arguments[0], arguments[1])
        let count = arguments.count > 3 ? Int(arguments[3]) : nil
        do {
            if let width = ["ahc-sequential-blocks": 1, "ahc-concurrent-blocks": 32][name] {
                // One process measures both variants: one line each.
                let results = try await Interleaved.blocks(baseURL, count: count ?? 10_000, width: width)
                for (measured, figures) in results {
                    try printLine(name: name, variant: measured, figures: figures)
                }
                return
            }
            let figures: [String: Double]
            switch name {
            case "ahc-sequential": figures = try await Requests.sequential(variant, baseURL, count: count ?? 2_000)
            case "ahc-concurrent": figures = try await Requests.concurrent(variant, baseURL, count: count ?? 10_000)
            case "ahc-large-file": figures = try await Transfers.toFile(variant, baseURL)
            case "ahc-tls": figures = try await TLSRequests.sequential(variant, baseURL, count: count ?? 1_000)
            case "ws-receive", "ws-echo", "ws-duplex":
                figures = try await SocketMessages.run(name, variant, count: count ?? 100_000)
            case "ws-slow-reader": figures = try await SocketMessages.slowReader(variant, count: count ?? 256)
            case "ahc-multipart": figures = try await Transfers.multipart(variant, baseURL, mebibytes: count ?? 1_024)
            default: throw BenchFailure("unknown measurement \(name)")
            }
            try printLine(name: name, variant: variant, figures: figures)
        } catch {
            FileHandle.standardError.write(Data("courier-ahc-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Prints one measurement's figures as a JSON line, which `Benchmarks/run` collects.
func printLine(name: String, variant: String, figures: [String: Double]) throws {
    let object: [String: Any] = ["name": name, "variant": variant, "figures": figures]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// Why a measurement could not run.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A monotonic clock in seconds.
func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// The resident memory of this process, in MiB: now (`VmRSS`) and its high-water mark (`VmHWM`).
enum Memory {
    static var currentMiB: Double { read("VmRSS:") }
    static var peakMiB: Double { read("VmHWM:") }

    private static func read(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib / 1024
    }
}
