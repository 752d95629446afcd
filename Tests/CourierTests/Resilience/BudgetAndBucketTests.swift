import Foundation
import Testing

@testable import Courier

@Suite("RetryBudget and RateLimit state")
struct BudgetAndBucketTests {
    /// The answers of `count` withdrawals at `now`.
    static func withdraw(_ ledger: inout BudgetLedger, _ count: Int, at now: TimeInterval) -> [Bool] {
        (0..<count).map { _ in ledger.withdraw(now: now) }
    }

    /// The answers of `count` takes at `now`.
    static func take(_ bucket: inout TokenBucket, _ count: Int, at now: TimeInterval) -> [Result<
        TimeInterval, ResilienceError
    >] {
        (0..<count).map { _ in bucket.take(now: now) }
    }

    @Test("a budget allows ratio × requests plus the floor within its window, then refuses; deposits expire")
    func budget() {
        var ledger = BudgetLedger(RetryBudget(ratio: 0.2, minimumPerSecond: 0, window: 10))
        for _ in 0..<10 { ledger.deposit(now: 0) }
        let first = Self.withdraw(&ledger, 3, at: 1)
        #expect(first == [true, true, false])
        // Eleven seconds later the window is empty: nothing deposited, nothing to withdraw.
        let empty = Self.withdraw(&ledger, 1, at: 11)
        #expect(empty == [false])
        for _ in 0..<5 { ledger.deposit(now: 11) }
        let refilled = Self.withdraw(&ledger, 2, at: 11)
        #expect(refilled == [true, false])
    }

    @Test("the floor lets a quiet client retry: minimumPerSecond × window retries with no requests")
    func floor() {
        var ledger = BudgetLedger(RetryBudget(ratio: 0, minimumPerSecond: 0.5, window: 10))
        let answers = Self.withdraw(&ledger, 6, at: 0)
        #expect(answers == [true, true, true, true, true, false])
    }

    @Test("a bucket spends its permits, then makes takers wait in turn, or refuses past the longest wait")
    func bucket() {
        var bucket = TokenBucket(RateLimit(permits: 5, interval: 10, maximumWait: 4))
        let taken = Self.take(&bucket, 8, at: 0)
        #expect(
            taken == Array(repeating: .success(0), count: 5) + [
                .success(2), .success(4), .failure(.rateLimited(retryAfter: 6)),
            ])
        bucket.giveBack()
        let returned = Self.take(&bucket, 1, at: 0)
        #expect(returned == [.success(4)])
        // 14 s later: 7 tokens came, less the 2 reserved and the one given back and taken again.
        let later = Self.take(&bucket, 1, at: 14)
        #expect(later == [.success(0)])
    }

    @Test("a rate limit that never waits refuses at once, with when the next token comes")
    func failFast() {
        var bucket = TokenBucket(RateLimit(permits: 1, interval: 2))
        let answers = Self.take(&bucket, 1, at: 0) + Self.take(&bucket, 1, at: 0.5) + Self.take(&bucket, 1, at: 2)
        #expect(answers == [.success(0), .failure(.rateLimited(retryAfter: 1.5)), .success(0)])
    }
}
