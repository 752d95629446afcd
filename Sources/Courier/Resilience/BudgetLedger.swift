import Foundation

/// The state of a ``RetryBudget``: the scope's requests and retries in the window.
struct BudgetLedger: Sendable {
    let budget: RetryBudget
    private var window: SlidingWindow

    init(_ budget: RetryBudget) {
        self.budget = budget
        window = SlidingWindow(duration: budget.window)
    }

    /// A request started: it deposits.
    mutating func deposit(now: TimeInterval) {
        window.add(first: 1, now: now)
    }

    /// Takes one retry's worth when the budget allows it; `false` when it is spent.
    mutating func withdraw(now: TimeInterval) -> Bool {
        let (requests, retries) = window.totals(now: now)
        let allowed = budget.ratio * Double(requests) + budget.minimumPerSecond * budget.window
        guard Double(retries + 1) <= allowed else { return false }
        window.add(second: 1, now: now)
        return true
    }
}
