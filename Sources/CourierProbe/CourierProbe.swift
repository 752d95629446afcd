import Courier
import Foundation

/// Sends one GET through a `Provider` and prints its outcome on one line, for tests that must
/// survive what the request might do to its process: `courier-probe <url>` prints
/// `success <status>` or `failure <stage> <transport kind>`.
///
/// `courier-probe disk-writer <folder> <byte> <rounds>` writes 64 KiB entries filled with `byte`
/// under ten keys of a `DiskCacheStorage` in `folder`, round after round, printing `ready` after
/// the first: a second process for the disk store's tests (two writers, a writer killed).
///
/// `courier-probe outbox <folder> <url> <first> <count>` enqueues writes into an outbox and
/// sends them (see `outbox(folder:url:first:count:)`): a process to kill while it does.
///
/// `courier-probe download <url> <file>` downloads `url` into `file` with
/// `Provider.download(_:resumingInto:)`, printing `done <bytes>` or `failure <stage>`: a process
/// to kill in the middle of a resumable download.
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
        if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "disk-writer" {
            return writeEntries(
                folder: URL(fileURLWithPath: CommandLine.arguments[2]), byte: UInt8(CommandLine.arguments[3]) ?? 0,
                rounds: Int(CommandLine.arguments[4]) ?? 1)
        }
        if CommandLine.arguments.count == 6, CommandLine.arguments[1] == "outbox",
            let url = URL(string: CommandLine.arguments[3]), let first = Int(CommandLine.arguments[4]),
            let count = Int(CommandLine.arguments[5])
        {
            return await outbox(
                folder: URL(fileURLWithPath: CommandLine.arguments[2]), url: url, first: first, count: count)
        }
        if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "download",
            let url = URL(string: CommandLine.arguments[2])
        {
            return await download(url, into: URL(fileURLWithPath: CommandLine.arguments[3]))
        }
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

    /// The resumable download.
    static func download(_ url: URL, into file: URL) async {
        do {
            let response = try await Provider<Target>().download(Target(baseURL: url), resumingInto: file)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber) ?? 0
            print("done \(response.statusCode) \(size.int64Value)")
        } catch {
            print("failure \(error.stage.rawValue)")
        }
    }

    /// The disk writer: `rounds` rounds of ten 64 KiB entries.
    static func writeEntries(folder: URL, byte: UInt8, rounds: Int) {
        guard let storage = try? DiskCacheStorage(directory: folder, maximumBytes: 100_000_000) else {
            print("cannot open \(folder.path)")
            exit(1)
        }
        for round in 0..<rounds {
            for key in 0..<10 {
                let entry = CachedResponse(
                    url: URL(string: "https://probe.test/\(key)")!, statusCode: 200,
                    headerFields: [.init(name: "X-Writer", value: String(byte))],
                    body: Data(repeating: byte, count: 65_536),
                    requestDate: Date(), responseDate: Date(), varyValues: [:])
                storage.store([entry], forKey: "key \(key)")
            }
            // Written straight to the pipe: print's buffer would hold it until exit.
            if round == 0 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
        }
        FileHandle.standardOutput.write(Data("done\n".utf8))
    }
}
