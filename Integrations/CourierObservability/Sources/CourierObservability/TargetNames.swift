import Courier
import Foundation

/// ``RequestLabels/target(_:)`` with the type's name remembered: a plugin names the same few
/// target types again and again, and only an enum's case needs reflecting each time. A plugin
/// that names a request's target in several hooks keeps the case's name for the request
/// (``name(of:request:)``) until it forgets it when the request ends: reflecting an enum case
/// costs about 12,000 instructions on Linux (callgrind, Benchmarks/README).
final class TargetNames: @unchecked Sendable {
    // @unchecked Sendable: `names` and `requests` are read and written only while holding `lock`.
    private let lock = NSLock()
    private var names: [ObjectIdentifier: (name: String, isEnum: Bool)] = [:]
    /// The names of enum targets of requests in flight.
    private var requests: [RequestID: String] = [:]

    func name(of target: any TargetType) -> String {
        let underlying = target.underlyingTarget
        let type = ObjectIdentifier(Swift.type(of: underlying))
        let known = lock.withLock { names[type] }
        switch known {
        case (let name, false)?:
            return name
        case (let name, true)?:
            return "\(name).\(RequestLabels.caseName(of: underlying) ?? "")"
        case nil:
            let name = String(describing: Swift.type(of: underlying))
            let caseName = RequestLabels.caseName(of: underlying)
            lock.withLock { names[type] = (name, caseName != nil) }
            return caseName.map { "\(name).\($0)" } ?? name
        }
    }

    /// ``name(of:)``, kept for `request` when it had to reflect: the plugin calls
    /// ``forget(_:)`` when the request ends.
    func name(of target: any TargetType, request: RequestID) -> String {
        let type = ObjectIdentifier(Swift.type(of: target.underlyingTarget))
        let known = lock.withLock { () -> String? in
            if let (name, isEnum) = names[type], !isEnum { return name }
            return requests[request]
        }
        if let known { return known }
        let name = name(of: target)
        lock.withLock {
            if names[type]?.isEnum == true { requests[request] = name }
        }
        return name
    }

    /// How many requests' names are kept (for tests).
    var keptRequests: Int { lock.withLock { requests.count } }

    /// Drops what ``name(of:request:)`` kept for `request`.
    func forget(_ request: RequestID) {
        lock.withLock { _ = requests.removeValue(forKey: request) }
    }
}
