extension TransportConformance {
    /// One behaviour a transport must have. Where the Swift HTTP client API proposal's
    /// conformance suite has a matching case, ``proposalCase`` names it.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
    public enum Case: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
        // Responses.
        /// Every method gets its answer, and every status code (2xx–5xx, and 599) is returned as
        /// a response, never thrown.
        case statusCodes
        /// An interim `100 Continue` is skipped: the answer is the final response.
        case informationalSkipped
        /// A 204 and a 304 have no body, whatever their `Content-Length` says.
        case noContent
        /// A `HEAD` response has no body, though it announces a `Content-Length`.
        case headWithContentLength
        /// Header names are case-insensitive both ways; a request header arrives as sent.
        case headerNamesCaseInsensitive
        /// A header the server repeats keeps every value.
        case repeatedResponseHeader
        /// A header the client repeats reaches the server with every value.
        case repeatedRequestHeader
        /// An empty body, and a 1 MiB body echoed back byte for byte.
        case smallAndEmptyBodies
        /// A large body (``largeBodySize``) arrives whole.
        case largeBody
        /// A chunked body, and an empty chunked body.
        case chunkedBody
        /// A body without a length, ended by closing the connection.
        case closeDelimitedBody
        /// A `Content-Encoding: gzip` body arrives decoded.
        case gzipBody
        /// A hundred requests at once each get their own answer.
        case concurrentRequests

        // Request bodies and transfers.
        /// A body held in the request arrives byte for byte, with its `Content-Length`.
        case requestBodyFromData
        /// A body uploaded from a file arrives byte for byte, framed by a length or by chunks.
        case requestBodyFromFile
        /// A multipart form arrives part for part.
        case requestBodyMultipart
        /// A body read from a stream (an `InputStream`, or asynchronous chunks) arrives byte for
        /// byte: with its `Content-Length` when its length is known; chunked, or collected and
        /// sent with its exact length, when it is not.
        case requestBodyFromStream
        /// A download is written to a temporary file, not returned in memory.
        case downloadToFile
        /// Download and upload progress only grow, and end at the total.
        case progress

        // Redirects. The engine returns a redirect as it came; the provider's redirect stage
        // follows it, so the other cases run through the stages a provider puts above the engine.
        /// A 3xx is returned as the answer, with its `Location` and body: the engine never follows it.
        case redirectReturned
        /// 301, 302 and 303 turn a `POST` into a `GET` without a body; 307 and 308 keep the method
        /// and the body.
        case redirectMethods
        /// A redirect loop ends with `TransportFailure.Kind.tooManyRedirects`.
        case redirectLoop
        /// Credentials (`Authorization`, `Cookie`) never follow a redirect to another origin.
        case redirectCrossOrigin

        // Streamed responses (`TransportRequest.Delivery.stream`).
        /// The head is returned while the body is still arriving, and the body then arrives
        /// whole, chunk by chunk.
        case streamedHeadBeforeBody
        /// Stopping reading a streamed body early closes the connection promptly.
        case streamedEarlyEnd
        /// A large streamed body (``largeBodySize``) read by a consumer that pauses after every
        /// MiB arrives whole, while the body holds at most ``streamMemoryBound`` in memory.
        case streamedSlowConsumer
        /// Through a `Provider`: an event stream cut after an event's `id` but before its blank
        /// line resumes with the `Last-Event-ID` of the event before, and that event arrives once.
        case streamedEventsResumeAfterCut
        /// Through a `Provider`: the server goes away in the middle of an event and comes back on
        /// the same port two seconds later; the refused connections are retried, and every event
        /// arrives exactly once, in order.
        case streamedEventsSurviveRestart
        /// Through a `Provider`: a target's `timeoutInterval` bounds the wait for each chunk, not
        /// the whole stream (events every 100 ms for 3 s with a 1 s timeout arrive whole), and a
        /// stream that stalls for longer ends with `TransportFailure.Kind.timedOut`.
        case streamedIdleTimeout
        /// Through a `Provider`: a reader that stops reading an endless stream never makes the body
        /// hold more than `StreamingLimits.maximumBacklog` (memory and temporary file together):
        /// either the transfer waits for the reader (backpressure), or the reader, once it reads
        /// again, gets what was kept and then `StreamingError.Code.backlogTooLarge`; either way
        /// the connection is closed when the stream ends.
        case streamedBacklogBound

        // Failures, timeouts and cancellation.
        /// Connection refused is `TransportFailure.Kind.cannotConnect`.
        case connectionRefused
        /// A connection closed before the status line is `TransportFailure.Kind.connectionLost`.
        case closedBeforeStatus
        /// A body shorter than its `Content-Length` is `TransportFailure.Kind.connectionLost`.
        case incompleteBody
        /// An answer that is not HTTP is `TransportFailure.Kind.badServerResponse`.
        case notHTTP
        /// Headers over the engine's limit are `TransportFailure.Kind.badServerResponse`.
        case oversizeHeaders
        /// A server that stalls after its head ends with `TransportFailure.Kind.timedOut` at the
        /// request's timeout, never before it.
        case stallTimesOut
        /// A kept-alive connection that the server closes after reading a whole request, before
        /// answering: a `POST` is never sent again by the transport (RFC 9110 §9.2.2), it fails
        /// with `TransportFailure.Kind.connectionLost` and the server has it once; a `PUT` is sent
        /// again at most once, and `TransportResponse.resends` says so.
        case staleConnectionResend
        /// Cancelling before the response head arrives ends `send` promptly with a cancellation.
        case cancelBeforeHead
        /// Cancelling while the body arrives ends `send` promptly with a cancellation.
        case cancelDuringBody

        /// The case's name.
        public var description: String { rawValue }

        /// The matching case of the Swift HTTP client API proposal's `HTTPClientConformance`
        /// suite (apple/swift-http-api-proposal), when there is one.
        public var proposalCase: String? {
            switch self {
            case .statusCodes: "testOk, testNotFound, testStatusOutOfRangeButValid"
            case .noContent: "test204WithContentLength, test304WithContentLength"
            case .headWithContentLength: "testHeadWithContentLength"
            case .headerNamesCaseInsensitive: "testCustomHeader"
            case .repeatedResponseHeader: "testServerSendsMultiValueHeader"
            case .repeatedRequestHeader: "testClientSendsMultiValueHeader"
            case .smallAndEmptyBodies: "testEchoString, testEcho1MBBody"
            case .chunkedBody: "testEmptyChunkedBody"
            case .closeDelimitedBody: "testNoLengthHint"
            case .gzipBody: "testGzip"
            case .redirectMethods: "testBasicRedirect"
            case .redirectLoop: "testInfiniteRedirect"
            case .incompleteBody: "testIncompleteBody"
            case .notHTTP: "testNotHTTP"
            case .cancelBeforeHead: "testCancelPreHeaders"
            case .cancelDuringBody: "testCancelPreBody"
            case .concurrentRequests: "testStressTest"
            default: nil
            }
        }

        enum Group {
            case responses, requestBodies, redirects, streams, eventStreams, failures
        }

        var group: Group {
            switch self {
            case .statusCodes, .informationalSkipped, .noContent, .headWithContentLength, .headerNamesCaseInsensitive,
                .repeatedResponseHeader, .repeatedRequestHeader, .smallAndEmptyBodies, .largeBody, .chunkedBody,
                .closeDelimitedBody, .gzipBody, .concurrentRequests:
                .responses
            case .requestBodyFromData, .requestBodyFromFile, .requestBodyMultipart, .requestBodyFromStream,
                .downloadToFile, .progress:
                .requestBodies
            case .redirectReturned, .redirectMethods, .redirectLoop, .redirectCrossOrigin: .redirects
            case .streamedHeadBeforeBody, .streamedEarlyEnd, .streamedSlowConsumer: .streams
            case .streamedEventsResumeAfterCut, .streamedEventsSurviveRestart, .streamedIdleTimeout,
                .streamedBacklogBound:
                .eventStreams
            case .connectionRefused, .closedBeforeStatus, .incompleteBody, .notHTTP, .oversizeHeaders, .stallTimesOut,
                .staleConnectionResend, .cancelBeforeHead, .cancelDuringBody:
                .failures
            }
        }
    }
}
