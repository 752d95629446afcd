import Courier
import Foundation

/// ``RequestLabels/target(_:)`` with each type's name remembered: a plugin names the same few
/// target types again and again. A `NamedTarget` gives its case's name itself; any other enum's
/// case is read by reflection, about 15,000 instructions on Linux (callgrind,
/// Benchmarks/README), so a plugin that names a request's target in several hooks keeps that name
/// for the request (``name(of:request:)``) until it forgets it when the request ends.
final class TargetNames: @unchecked Sendable {
    // @unchecked Sendable: `types` and `requests` are read and written only while holding `lock`.
    private let lock = NSLock()
    /// Each target type's name, and how its cases are named.
    private var types: [ObjectIdentifier: TypeName] = [:]
    /// The names of reflected enum targets of requests in flight.
    private var requests: [RequestID: String] = [:]

    private struct TypeName {
        let name: String
        let cases: Cases
    }

    /// How a type's values are named.
    private enum Cases {
        /// Not an enum: by the type's name alone.
        case none
        /// By the target's own `caseName`.
        case named
        /// By reflection.
        case reflected
    }

    func name(of target: any TargetType) -> String {
        name(of: target.underlyingTarget, type: known(target.underlyingTarget))
    }

    /// ``name(of:)``, kept for `request` when it had to reflect: the plugin calls
    /// ``forget(_:)`` when the request ends.
    func name(of target: any TargetType, request: RequestID) -> String {
        let underlying = target.underlyingTarget
        let type = known(underlying)
        guard case .reflected = type.cases else { return name(of: underlying, type: type) }
        if let kept = lock.withLock({ requests[request] }) { return kept }
        let name = name(of: underlying, type: type)
        lock.withLock { requests[request] = name }
        return name
    }

    private func name(of underlying: any TargetType, type: TypeName) -> String {
        switch type.cases {
        case .none: type.name
        case .named: TargetName.caseName(of: underlying).map { "\(type.name).\($0)" } ?? type.name
        case .reflected: RequestLabels.caseName(of: underlying).map { "\(type.name).\($0)" } ?? type.name
        }
    }

    /// The type's name and how its cases are named, found the first time the type is seen.
    private func known(_ underlying: any TargetType) -> TypeName {
        let id = ObjectIdentifier(Swift.type(of: underlying))
        if let known = lock.withLock({ types[id] }) { return known }
        let cases: Cases =
            if underlying is any NamedTarget {
                .named
            } else {
                Mirror(reflecting: underlying).displayStyle == .enum ? .reflected : .none
            }
        let type = TypeName(name: String(describing: Swift.type(of: underlying)), cases: cases)
        lock.withLock { types[id] = type }
        return type
    }

    /// How many requests' names are kept (for tests).
    var keptRequests: Int { lock.withLock { requests.count } }

    /// Drops what ``name(of:request:)`` kept for `request`.
    func forget(_ request: RequestID) {
        lock.withLock { _ = requests.removeValue(forKey: request) }
    }
}
