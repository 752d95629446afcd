import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The words an error gives a person: its `LocalizedError` description; a URL-loading error's
/// message and code; otherwise what the error says of itself. A Swift error of another engine
/// (AsyncHTTPClient's `HTTPClientError.deadlineExceeded`, NIO's `IOError`) names its reason that
/// way, where Foundation's bridge would say only "The operation could not be completed.
/// (AsyncHTTPClient.HTTPClientError error 1.)".
enum ErrorText {
    static func of(_ error: any Error) -> String {
        if let error = error as? any LocalizedError, let text = error.errorDescription { return text }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            return "\(nsError.localizedDescription) (URLError \(nsError.code))"
        }
        return String(describing: error)
    }
}
