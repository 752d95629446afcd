import Foundation

/// Server-Sent Event parsing of arbitrary bytes: never a crash, and the same events, last event
/// ID and retry whether the stream arrives whole or cut into chunks the input chooses.
public func fuzzEventStream(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let cuts = (0..<Int(input.byte() % 8)).map { _ in Int(input.byte()) }
    let stream = input.rest()

    var whole = ServerSentEventParser(maximumLineLength: 64)
    let expected = whole.parse(stream)

    var split = ServerSentEventParser(maximumLineLength: 64)
    var events: [ServerSentEvent] = []
    var rest = stream[...]
    for cut in cuts {
        let piece = rest.prefix(cut)
        rest = rest.dropFirst(cut)
        events += split.parse(Data(piece))
    }
    events += split.parse(Data(rest))

    precondition(events == expected, "chunking changed the events")
    precondition(split.lastEventID == whole.lastEventID, "chunking changed the last event ID")
    precondition(split.retryMilliseconds == whole.retryMilliseconds, "chunking changed the retry")
    return 0
}
