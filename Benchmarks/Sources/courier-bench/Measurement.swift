import Foundation

/// One measurement's result: named figures, printed as a JSON object.
struct MeasurementResult {
    let name: String
    let variant: String
    var figures: [String: Double]

    var json: String {
        let object: [String: Any] = ["name": name, "variant": variant, "figures": figures]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

/// The measurements, by name and variant.
enum Measurement {
    static func run(name: String, variant: String, baseURL: URL, count: Int?) async throws -> MeasurementResult {
        let figures: [String: Double]
        switch (name, variant) {
        case ("stub", "courier"): figures = try await StubBench.courier(count: count ?? 20_000)
        case ("stub", "main-actor"): figures = try await StubBench.mainActorLoop(count: count ?? 20_000)
        case ("stub", "main-actor-hop"): figures = try await StubBench.mainActorHop(count: count ?? 20_000)
        case ("stub", "pipeline"): figures = try await StubBench.pipelineOnly(count: count ?? 20_000)
        case ("stub", "decode"): figures = try StubBench.decodeOnly(count: count ?? 20_000)
        case ("cache-hit", _): figures = try await CacheBench.run(variant, count: count ?? 20_000)
        case ("cache-revalidate", _):
            figures = try await CacheBench.revalidation(variant, baseURL, count: count ?? 2_000)
        case ("sequential", _): figures = try await HTTPBench.sequential(variant, baseURL, count: count ?? 2_000)
        case ("sequential-1mib", _):
            figures = try await HTTPBench.sequentialMebibyte(variant, baseURL, count: count ?? 200)
        case ("concurrent", _):
            figures = try await HTTPBench.concurrent(variant, baseURL, count: count ?? 10_000, width: 32)
        case ("large-memory", _): figures = try await LargeBench.inMemory(variant, baseURL)
        case ("large-file", _): figures = try await LargeBench.toFile(variant, baseURL)
        case ("resume-whole", _): figures = try await ResumeBench.whole(variant, baseURL)
        case ("resume-cuts", _): figures = try await ResumeBench.cuts(variant)
        case ("multipart", _): figures = try await UploadBench.multipart(variant, baseURL, mebibytes: count ?? 1024)
        case ("rss-growth", _): figures = try await SteadyStateBench.rssGrowth(variant, baseURL, count: count ?? 10_000)
        case ("cancel-latency", _):
            figures = try await SteadyStateBench.cancelLatency(variant, baseURL, count: count ?? 1_000)
        case ("stream-slow", _): figures = try await StreamBench.slowReader(variant, baseURL)
        case ("stream-break", _): figures = try await StreamBench.breakLatency(variant, count: count ?? 200)
        case ("stream-stalled", _): figures = try await StalledReaderBench.run(variant, seconds: Double(count ?? 3))
        case ("auth", "courier"): figures = try await AuthBench.expiredToken(concurrent: count ?? 100)
        case ("outbox-enqueue", _): figures = try await OutboxBench.enqueue(variant, count: count ?? 2_000)
        case ("outbox-memory", _): figures = try await OutboxBench.memory(variant, count: count ?? 100_000)
        default: throw BenchError.unknown(name, variant)
        }
        return MeasurementResult(name: name, variant: variant, figures: figures)
    }
}

/// Peak resident memory of this process, in MiB.
enum Memory {
    static var peakMiB: Double {
        #if os(Linux)
            // VmHWM is the high-water mark of the resident set.
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
            else { return 0 }
            return kib / 1024
        #else
            var usage = rusage()
            getrusage(RUSAGE_SELF, &usage)
            return Double(usage.ru_maxrss) / 1_048_576  // bytes on Darwin
        #endif
    }

    static var currentMiB: Double {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
            else { return 0 }
            return kib / 1024
        #else
            return peakMiB
        #endif
    }
}

/// `RUSAGE_SELF`, typed as this platform's `getrusage` takes it (an enum case on Glibc).
#if canImport(Glibc)
    private let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
    private let rusageSelf = RUSAGE_SELF
#endif

/// The CPU time this process has used, user and system, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// A monotonic clock in seconds.
func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
