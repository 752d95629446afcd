import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("TransportFailure classification")
struct TransportFailureTests {
    private func urlError(_ code: Int, _ message: String, url: String = "https://api.example.com/x") -> NSError {
        NSError(
            domain: NSURLErrorDomain, code: code,
            userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: URL(string: url)!])
    }

    @Test("-1002 for an http(s) URL is an answer that is not HTTP; for another scheme, a bad URL")
    func unsupportedURL() {
        #expect(TransportFailure(urlError(-1002, "Received HTTP/0.9 when not allowed")).kind == .badServerResponse)
        #expect(TransportFailure(urlError(-1002, "anything", url: "http://h/x")).kind == .badServerResponse)
        #expect(TransportFailure(urlError(-1002, "unsupported URL", url: "ftp://h/x")).kind == .badURL)
    }

    @Test("libcurl's messages are compared from their opening: a host or path inside cannot change the kind")
    func messagesAreNotSearched() {
        let cases: [(String, TransportFailure.Kind)] = [
            ("Failed to connect to tls.example.com port 443 after 3 ms: No route to host", .cannotConnect),
            ("Could not frobnicate the ssl-header of http/1.1 certificate", .other),
            ("transfer closed with 97 bytes remaining to read", .connectionLost),
            ("Illegal or missing hexadecimal sequence in chunked-encoding", .badServerResponse),
            ("Out of memory", .badServerResponse),
            ("SSL certificate problem: self-signed certificate", .secureConnectionFailed),
        ]
        for (message, kind) in cases {
            #if canImport(FoundationNetworking)
                #expect(TransportFailure(urlError(-1, message)).kind == kind, "\(message)")
            #else
                // Apple platforms never report libcurl messages: -1 is always `other` there.
                #expect(TransportFailure(urlError(-1, message)).kind == .other, "\(message)")
                _ = kind
            #endif
        }
    }
}
