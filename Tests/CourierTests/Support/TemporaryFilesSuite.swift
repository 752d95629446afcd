import Testing

/// The suites that count Courier's temporary files, nested here so that they never run at the same
/// time as each other (`.serialized` applies to nested suites too).
@Suite("Temporary files", .serialized)
enum TemporaryFilesSuite {}
