import Testing

/// Every suite of this package, one after another: the conformance suite's cancellation cases
/// measure a 50 ms bound, which 100 concurrent requests of another suite on the same two cores
/// would blur (`.serialized` applies to nested suites and to a test's arguments too).
@Suite("CourierAsyncHTTPClient", .serialized)
enum SerializedSuite {}
