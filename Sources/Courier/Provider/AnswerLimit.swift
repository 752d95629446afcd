import Foundation

/// How much of an answer's body an outbox's try reads (an outcome keeps only its start), and
/// whether the last attempt's body was cut: longer than the limit, or ended by a failure after
/// the head (the status is the server's answer; only what the outcome keeps of the body is short).
final class AnswerLimit: Sendable {
    /// The most bytes of the body read.
    let bytes: Int
    private let cut = Locked(false)

    /// A limit of `bytes`.
    init(bytes: Int) {
        self.bytes = max(1, bytes)
    }

    /// Whether the last attempt's body was cut.
    var wasCut: Bool { cut.value }

    /// Records whether this attempt's body was cut.
    func record(cut: Bool) {
        self.cut.withLock { $0 = cut }
    }
}
