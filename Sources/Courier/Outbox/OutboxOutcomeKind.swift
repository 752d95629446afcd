/// How an ``Outbox`` entry ended.
public enum OutboxOutcomeKind: String, Sendable, Hashable, Codable {
    /// The server accepted it (the target's validation passed).
    case delivered
    /// The server answered with a failure that is the write's own (a 400, a 403, a 409, a
    /// 422, ...), or the request could not be built: trying again would fail the same way.
    case rejected
    /// Its ``OutboxOptions/lifetime`` passed before it was delivered.
    case expired
    /// It was tried ``OutboxOptions/maximumAttempts`` times without an answer that ends it.
    case attemptsExhausted
    /// Its stored target could not be decoded (the target type changed since it was stored).
    case unreadable
}
