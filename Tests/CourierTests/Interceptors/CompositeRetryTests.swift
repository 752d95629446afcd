import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The composite `Interceptor`'s rule, every combination of two retriers: `.doNotRetry` passes to
/// the next retrier, anything else decides and stops.
@Suite("Composite retry rule")
struct CompositeRetryTests {
    struct Veto: Error {}

    enum Answer: String, CaseIterable, Sendable {
        case retry, retryWithDelay, doNotRetry, doNotRetryWithError

        var result: RetryResult {
            switch self {
            case .retry: .retry
            case .retryWithDelay: .retryWithDelay(0.5)
            case .doNotRetry: .doNotRetry
            case .doNotRetryWithError: .doNotRetryWithError(Veto())
            }
        }
    }

    static let pairs = Answer.allCases.flatMap { first in Answer.allCases.map { (first, $0) } }

    @Test("first answer × second answer", arguments: pairs)
    func combination(first: Answer, second: Answer) async {
        let asked = Locked<[String]>([])
        let retriers = [("first", first), ("second", second)].map { name, answer in
            Retrier { _, _, _ in
                asked.withLock { $0.append(name) }
                return answer.result
            }
        }
        let composite = Interceptor(retriers: retriers)
        let context = RequestContext(target: MultiTarget(Secured.open), attempt: 1)

        let result = await composite.retry(
            URLRequest(url: URL(string: "https://api.example.com")!), dueTo: .cancelled, context: context)

        let decider = first == .doNotRetry ? second : first
        #expect(asked.value == (first == .doNotRetry ? ["first", "second"] : ["first"]))
        #expect(Answer(result) == decider)
    }
}

extension CompositeRetryTests.Answer {
    init(_ result: RetryResult) {
        switch result {
        case .retry: self = .retry
        case .retryWithDelay: self = .retryWithDelay
        case .doNotRetry: self = .doNotRetry
        case .doNotRetryWithError: self = .doNotRetryWithError
        }
    }
}
