import Courier
import Foundation

/// ``RequestLabels/target(_:)`` with the type's name remembered: a plugin names the same few
/// target types again and again, and only an enum's case needs reflecting each time.
final class TargetNames: @unchecked Sendable {
    // @unchecked Sendable: `names` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var names: [ObjectIdentifier: (name: String, isEnum: Bool)] = [:]

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
}
