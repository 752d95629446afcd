import Foundation

/// A `multipart/form-data` body: named parts from data, files or streams, separated by a boundary.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append(Data("Ann".utf8), name: "author")
/// form.append(fileURL: photoURL, name: "photo")   // file name and MIME type inferred
/// let task = HTTPTask.uploadMultipartFormData(form)
/// ```
/// Bodies up to ``encodingMemoryThreshold`` are encoded in memory; larger ones are written to a
/// temporary file, uploaded from disk and deleted whatever the outcome, so memory stays bounded
/// whatever the size of the files.
public struct MultipartFormData: Sendable {
    /// Where a part's content comes from.
    public enum Content: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file, read in chunks when the body is encoded.
        case file(URL)
        /// A stream of exactly `length` bytes, made anew for each attempt (streams can be read once).
        case stream(@Sendable () throws -> InputStream, length: UInt64)
    }

    /// One part of the body.
    public struct Part: Sendable {
        /// The form field's name.
        public var name: String
        /// The file name sent in `Content-Disposition`, if any.
        public var fileName: String?
        /// The part's `Content-Type`, if any.
        public var mimeType: String?
        /// The part's content.
        public var content: Content

        /// Creates a part.
        /// - Parameters:
        ///   - content: The content.
        ///   - name: The form field's name.
        ///   - fileName: The file name; for a file, its last path component by default.
        ///   - mimeType: The content type; for a file, inferred from its extension by default.
        public init(content: Content, name: String, fileName: String? = nil, mimeType: String? = nil) {
            self.content = content
            self.name = name
            if case .file(let url) = content {
                self.fileName = fileName ?? url.lastPathComponent
                self.mimeType = mimeType ?? MIMEType.forPathExtension(url.pathExtension)
            } else {
                self.fileName = fileName
                self.mimeType = mimeType
            }
        }
    }

    /// The default size above which a body is encoded to a temporary file: 10 MB.
    public static let defaultEncodingMemoryThreshold: UInt64 = 10_000_000

    /// The boundary between parts.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part]
    /// The size above which the body is encoded to a temporary file rather than in memory.
    public var encodingMemoryThreshold: UInt64

    /// Creates an empty form.
    /// - Parameters:
    ///   - boundary: The boundary; a random one by default. It must not occur in any part.
    ///   - parts: The parts.
    ///   - encodingMemoryThreshold: The size above which the body is written to a temporary file.
    public init(
        boundary: String? = nil, parts: [Part] = [],
        encodingMemoryThreshold: UInt64 = MultipartFormData.defaultEncodingMemoryThreshold
    ) {
        self.boundary = boundary ?? Self.randomBoundary()
        self.parts = parts
        self.encodingMemoryThreshold = encodingMemoryThreshold
    }

    /// The `Content-Type` header of the body, with its boundary.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// Appends a part from bytes in memory.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The form field's name.
    ///   - fileName: The file name, if the part is a file.
    ///   - mimeType: The content type, if any.
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(content: .data(data), name: name, fileName: fileName, mimeType: mimeType))
    }

    /// Appends a part from a file; its name and type are inferred unless given.
    /// - Parameters:
    ///   - fileURL: The file.
    ///   - name: The form field's name.
    ///   - fileName: The file name; the file's own by default.
    ///   - mimeType: The content type; inferred from the extension by default.
    public mutating func append(fileURL: URL, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(content: .file(fileURL), name: name, fileName: fileName, mimeType: mimeType))
    }

    /// Appends a part from a stream.
    /// - Parameters:
    ///   - length: The exact number of bytes the stream gives.
    ///   - name: The form field's name.
    ///   - fileName: The file name, if the part is a file.
    ///   - mimeType: The content type, if any.
    ///   - makeStream: Makes a fresh stream; called once per attempt.
    public mutating func append(
        length: UInt64, name: String, fileName: String? = nil, mimeType: String? = nil,
        stream makeStream: @escaping @Sendable () throws -> InputStream
    ) {
        parts.append(
            Part(content: .stream(makeStream, length: length), name: name, fileName: fileName, mimeType: mimeType))
    }

    private static func randomBoundary() -> String {
        let random = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        return "courier.boundary.\(random)"
    }
}

extension MultipartFormData: ExpressibleByArrayLiteral {
    /// An empty form with a random boundary: append its parts.
    public init() {
        self.init(boundary: nil)
    }

    /// A form of these parts, with a random boundary, as Moya's `MultipartFormData` is written:
    /// `[MultipartFormBodyPart(provider: .data(data), name: "file")]`.
    /// - Parameter parts: The parts, in order.
    public init(arrayLiteral parts: Part...) {
        self.init(parts: parts)
    }
}
