import Foundation

/// Server-Sent Event parsing of arbitrary bytes, within limits the input chooses: never a crash;
/// the same events, last event ID, retry and limit error whether the stream arrives whole or cut
/// into chunks the input chooses; no event's data past its limit (in bytes received); no NUL in a
/// last event ID.
public func fuzzEventStream(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let limits = StreamingLimits(
        maximumLineLength: 16 + Int(input.byte() % 64), maximumEventLength: 8 + Int(input.byte()))
    let cuts = (0..<Int(input.byte() % 8)).map { _ in Int(input.byte()) }
    let stream = input.rest()

    var whole = ServerSentEventParser(limits: limits)
    var expected: [ServerSentEvent] = []
    let expectedError = parse(stream, with: &whole, into: &expected)

    var split = ServerSentEventParser(limits: limits)
    var events: [ServerSentEvent] = []
    var error: StreamingError?
    var rest = stream[...]
    for cut in cuts + [rest.count] where error == nil {
        error = parse(Data(rest.prefix(cut)), with: &split, into: &events)
        rest = rest.dropFirst(cut)
    }

    precondition(events == expected, "chunking changed the events")
    precondition(error == expectedError, "chunking changed the error")
    precondition(split.lastEventID == whole.lastEventID, "chunking changed the last event ID")
    precondition(split.retryMilliseconds == whole.retryMilliseconds, "chunking changed the retry")
    // The limit counts the bytes received; each invalid byte becomes U+FFFD, three bytes of UTF-8.
    precondition(
        events.allSatisfy { $0.data.utf8.count <= 3 * limits.maximumEventLength }, "an event passed its limit")
    precondition(!whole.lastEventID.unicodeScalars.contains("\u{0}"), "a NUL in the last event ID")
    if expectedError != nil {
        // A parser that passed a limit stays failed.
        precondition(parse(Data("data: x\n\n".utf8), with: &whole, into: &expected) == expectedError)
    }
    return 0
}

/// Parses `chunk`, appending to `events`; the limit error, if one was passed.
private func parse(
    _ chunk: Data, with parser: inout ServerSentEventParser, into events: inout [ServerSentEvent]
) -> StreamingError? {
    do {
        try parser.parse(chunk, into: &events)
        return nil
    } catch {
        return error
    }
}
