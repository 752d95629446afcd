import Foundation

/// The HTTP Archive format, version 1.2 (W3C Web Performance working group's draft, as browsers'
/// developer tools import and export it): the subset Courier writes and reads. Fields another tool
/// writes and Courier does not use are optional when reading; Courier's own fields are in
/// `_courier`, as the format allows custom fields that begin with `_`.
enum HAR {
    /// The file: `{"log": …}`.
    struct File: Codable, Sendable {
        var log: Log
    }

    /// The archive.
    struct Log: Codable, Sendable {
        var version = "1.2"
        var creator = Creator()
        var entries: [Entry] = []
    }

    /// The application that wrote the archive.
    struct Creator: Codable, Sendable {
        var name = "Courier"
        var version = "1"
    }

    /// One exchange.
    struct Entry: Codable, Sendable {
        var startedDateTime: String
        /// The exchange's duration, in milliseconds.
        var time: Double
        var request: Request
        var response: Response
        var cache: Cache? = Cache()
        var timings: Timings? = nil
        var courier: CourierFields? = nil
        /// A WebSocket's messages, as browsers export them.
        var webSocketMessages: [WebSocketMessage]? = nil

        enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings
            case courier = "_courier"
            case webSocketMessages = "_webSocketMessages"
        }
    }

    /// One message of a WebSocket's entry, in the form browsers export: `send` or `receive`, when
    /// (seconds since 1970), the opcode (1 text, 2 binary) and the data (a binary message's in
    /// Base64).
    struct WebSocketMessage: Codable, Sendable, Hashable {
        var type: String
        var time: Double
        var opcode: Int
        var data: String
    }

    /// A request.
    struct Request: Codable, Sendable {
        var method: String
        var url: String
        var httpVersion: String? = "HTTP/1.1"
        var cookies: [Cookie]? = []
        var headers: [Field]
        var queryString: [Field]? = []
        var postData: PostData? = nil
        var headersSize: Int? = -1
        var bodySize: Int? = -1
    }

    /// A request's body.
    struct PostData: Codable, Sendable {
        var mimeType: String? = nil
        var text: String? = nil
        /// `base64` when `text` holds the bytes in Base64 (Courier's, for a body that is not text).
        var encoding: String? = nil

        enum CodingKeys: String, CodingKey {
            case mimeType, text
            case encoding = "_encoding"
        }
    }

    /// A response.
    struct Response: Codable, Sendable {
        var status: Int
        var statusText: String? = ""
        var httpVersion: String? = "HTTP/1.1"
        var cookies: [Cookie]? = []
        var headers: [Field]
        var content: Content
        var redirectURL: String? = ""
        var headersSize: Int? = -1
        var bodySize: Int? = -1
    }

    /// A response's body.
    struct Content: Codable, Sendable {
        var size: Int? = nil
        var mimeType: String? = nil
        var text: String? = nil
        /// `base64` when `text` holds the bytes in Base64 (HAR 1.2's own field).
        var encoding: String? = nil
    }

    /// A header field or a query item.
    struct Field: Codable, Sendable, Equatable {
        var name: String
        var value: String
    }

    /// A cookie as HAR lists it (Courier writes none: cookies stay in their header fields, redacted).
    struct Cookie: Codable, Sendable {
        var name: String
        var value: String
    }

    /// The cache's part (always empty here).
    struct Cache: Codable, Sendable {}

    /// Where the exchange's time went, in milliseconds; `-1` for what does not apply.
    struct Timings: Codable, Sendable {
        var send: Double? = 0
        var wait: Double? = 0
        var receive: Double? = 0
    }

    /// Courier's own fields.
    struct CourierFields: Codable, Sendable {
        /// The target that made the request (`GitHub.user`, say).
        var target: String? = nil
        /// The attempt, from 1.
        var attempt: Int? = nil
        /// The request's identifier within its provider.
        var request: String? = nil
        /// A streamed body's chunks: when each arrived (milliseconds after the head) and its size.
        var chunks: [Chunk]? = nil
        /// Whether a body was longer than the recorder keeps (only its start is in the file).
        var truncated: Bool? = nil
        /// Whether the body failed or was abandoned before its end.
        var incomplete: Bool? = nil
    }

    /// A chunk of a streamed body.
    struct Chunk: Codable, Sendable {
        var at: Double
        var size: Int
    }
}

extension HAR {
    /// The body as a HAR text: UTF-8 text as it is, anything else in Base64.
    static func text(of data: Data) -> (text: String, base64: Bool) {
        if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") { return (text, false) }
        return (data.base64EncodedString(), true)
    }

    /// The bytes of a HAR text.
    static func data(of text: String?, base64: Bool) -> Data {
        guard let text else { return Data() }
        return base64 ? Data(base64Encoded: text) ?? Data() : Data(text.utf8)
    }

    /// A date as HAR writes it (ISO 8601 with milliseconds).
    static func timestamp(_ date: Date) -> String {
        var style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        style.timeZone = TimeZone(identifier: "UTC")!
        return date.formatted(style)
    }
}
