import Foundation

/// `courier-bench <measurement> <variant> <base-url> [count]`: runs one measurement in this
/// process and prints one JSON object. `courier-bench serve <directory>`: serves the files of a
/// directory on 127.0.0.1 (the fallback when nginx is unavailable) and prints its base URL.
/// `courier-bench fixtures <directory>`: writes the files the measurements fetch.
/// `courier-bench chaos <case> <variant> [clients]`: one run of the resilience chaos scenario
/// (see `ChaosBench` and `Benchmarks/chaos`).
@main
struct Main {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if arguments.first == "serve", arguments.count == 2 {
                try await FileServer.serve(directory: arguments[1])
                return
            }
            if arguments.first == "chaos", arguments.count >= 3 {
                let clients = arguments.count > 3 ? Int(arguments[3]) ?? 200 : 200
                try await ChaosBench.run(arguments[1], variant: arguments[2], clients: clients)
                return
            }
            if arguments.first == "fixtures", arguments.count == 2 {
                try FileServer.writeFixtures(to: arguments[1])
                return
            }
            guard arguments.count >= 3, let baseURL = URL(string: arguments[2]) else {
                throw BenchError.usage
            }
            let count = arguments.count > 3 ? Int(arguments[3]) : nil
            if let width = ["sequential-blocks": 1, "concurrent-blocks": 32][arguments[0]] {
                // One process measures both variants: one line each.
                let results = try await InterleavedBench.blocks(
                    arguments[0], baseURL, count: count ?? 10_000, width: width)
                for result in results { print(result.json) }
                return
            }
            let result = try await Measurement.run(
                name: arguments[0], variant: arguments[1], baseURL: baseURL, count: count)
            print(result.json)
        } catch {
            FileHandle.standardError.write(Data("courier-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case usage
    case unknown(String, String)
    case failed(String)

    var description: String {
        switch self {
        case .usage:
            "usage: courier-bench <measurement> <variant> <base-url> [count] | serve <directory> | fixtures <directory>"
        case .unknown(let name, let variant): "unknown measurement \(name)/\(variant)"
        case .failed(let reason): reason
        }
    }
}
