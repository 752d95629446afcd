import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The words an error gives a person: its `LocalizedError` description; a URL-loading error's
/// message and code; otherwise what the error says of itself. A Swift error of another engine
/// (AsyncHTTPClient's `HTTPClientError.deadlineExceeded`, NIO's `IOError`) names its reason that
/// way, where Foundation's bridge would say only "The operation could not be completed.
/// (AsyncHTTPClient.HTTPClientError error 1.)".
///
/// A decoding or encoding error is told by its kind and coding path only: their own texts quote
/// the value that failed (`Cannot initialize Kind from invalid String value <token>`, a number too
/// large, an `EncodingError`'s value), which may be anything the server or the caller sent.
///
/// An error that gives no text of its own (not a `LocalizedError`, not `CustomStringConvertible`,
/// such as an app's `enum VaultError: Error { case refused(token: String) }`) is named by its type
/// and case only (`VaultError.refused`): its associated values may be anything, a token among them.
enum ErrorText {
    static func of(_ error: any Error, redaction: Redaction = .default) -> String {
        if let error = error as? DecodingError { return of(error) }
        if let error = error as? EncodingError { return of(error) }
        if let error = error as? RedirectError { return error.description(redaction: redaction) }
        if let error = error as? any LocalizedError, let text = error.errorDescription { return text }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            return "\(nsError.localizedDescription) (URLError \(nsError.code))"
        }
        if ValueName.describesItself(type(of: error)) { return String(describing: error) }
        return ValueName.text(of: error)
    }

    /// A decoding error without the value it quotes: what was expected, where.
    private static func of(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return
                "Expected a value of type \(type) at \(path(context.codingPath)) (a value of another type was found)."
        case .valueNotFound(let type, let context):
            return "Expected a value of type \(type) at \(path(context.codingPath)), found null or nothing."
        case .keyNotFound(let key, let context):
            return "The key '\(key.stringValue)' is missing at \(path(context.codingPath))."
        case .dataCorrupted(let context):
            // At the top, the data is not JSON at all (the parser's text names a position, not a
            // value); deeper, the text quotes the value found there.
            guard context.codingPath.isEmpty, let underlying = context.underlyingError else {
                return "The value at \(path(context.codingPath)) is not valid for its type."
            }
            let parser = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return "The data is not valid JSON" + (parser.map { ": \($0)" } ?? ".")
        @unknown default:
            return "The data could not be decoded."
        }
    }

    /// An encoding error without the value it holds: its type and where.
    private static func of(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(let value, let context):
            return "A value of type \(type(of: value)) at \(path(context.codingPath)) cannot be encoded."
        @unknown default:
            return "The value could not be encoded."
        }
    }

    /// A coding path as `items[2].kind`, or `the top level`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return "'\(text)'"
    }
}
