import Courier
import Foundation

/// `courier-probe outbox <folder> <url> <first> <count>`: opens the outbox `crash` in `folder`
/// sending to `url`, enqueues the writes `first ..< first + count`, printing `enqueued <n>` as
/// each `enqueue` returns (the entry is then the outbox's), then waits until none waits and
/// prints `drained`: a process to kill at random points of enqueueing and sending.
extension CourierProbe {
    /// One numbered write.
    struct Write: TargetType, Codable {
        let number: Int
        let base: URL
        var baseURL: URL { base }
        var path: String { "/writes" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestData(Data(String(number).utf8)) }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var timeoutInterval: TimeInterval? { 5 }
    }

    static func outbox(folder: URL, url: URL, first: Int, count: Int) async {
        var options = OutboxOptions()
        options.delay = 0.02
        options.maximumDelay = 0.2
        let outbox: Outbox<Write>
        do {
            outbox = try Provider<Write>().outbox(named: "crash", in: folder, options: options)
        } catch {
            print("failure \(error)")
            exit(1)
        }
        for number in first..<(first + count) {
            do {
                _ = try await outbox.enqueue(Write(number: number, base: url))
                // Written straight to the pipe: print's buffer would hold it until exit.
                FileHandle.standardOutput.write(Data("enqueued \(number)\n".utf8))
            } catch {
                FileHandle.standardOutput.write(Data("failure \(error)\n".utf8))
            }
        }
        while outbox.waiting.entries > 0 { try? await Task.sleep(nanoseconds: 10_000_000) }
        FileHandle.standardOutput.write(Data("drained\n".utf8))
        await outbox.close()
    }
}
