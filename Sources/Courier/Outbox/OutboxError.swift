import Foundation

/// Why an ``Outbox`` could not open, take an entry or keep its records.
public enum OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The queue's name is not 1 to 64 letters, digits, `.`, `_` or `-`, or starts with a `.`:
    /// it names a folder, and must not name another one.
    case invalidName(String)
    /// Another outbox holds the queue: one in another process, or one of this process not yet
    /// closed (a queue is sent by one owner at a time, so that no entry is sent twice at once).
    case locked(name: String)
    /// The outbox holds ``OutboxOptions/maximumEntries`` entries already: the entry was not taken.
    case full(entries: Int)
    /// Taking the entry would put the outbox past ``OutboxOptions/maximumBytes``: it was not taken.
    case tooManyBytes(limit: Int)
    /// The dead-letter list holds ``OutboxOptions/maximumDeadLetters`` failures: the entry was
    /// not taken. ``Outbox/removeDeadLetter(_:)`` makes room.
    case deadLettersFull(limit: Int)
    /// The disk is full: the entry (or the record named) was not written.
    case diskFull
    /// A file of the outbox could not be written, read or removed (`errno` as the system gave it).
    case storage(operation: String, errno: Int32)
    /// The target could not be encoded for storage.
    case encoding(String)
    /// The outbox was closed: nothing more is taken or sent by this instance.
    case closed
    /// The outcome is not this outbox's (another queue's), or, for ``Outbox/removeDeadLetter(_:)``,
    /// no longer on its dead-letter list: nothing was removed.
    case unknownOutcome

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case .invalidName(let name):
            "An outbox's name is 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'; "
                + "\(Redaction.escaped(name)) is not."
        case .locked(let name):
            "The outbox \(Redaction.escaped(name)) is open elsewhere (another process, or an instance not closed)."
        case .full(let entries): "The outbox holds its limit of \(entries) entries; the entry was not taken."
        case .tooManyBytes(let limit): "The outbox would pass its limit of \(limit) bytes; the entry was not taken."
        case .deadLettersFull(let limit):
            "The outbox's dead-letter list holds its limit of \(limit) failures; the entry was not taken "
                + "(remove failures handled with removeDeadLetter)."
        case .diskFull: "The disk is full; nothing was written."
        case .storage(let operation, let code):
            "The outbox could not \(operation) (errno \(code): \(String(cString: strerror(code))))."
        case .encoding(let problem): "The target could not be encoded for the outbox: \(problem)."
        case .closed: "The outbox is closed."
        case .unknownOutcome: "The outcome is not one this outbox holds; nothing was removed."
        }
    }
}
