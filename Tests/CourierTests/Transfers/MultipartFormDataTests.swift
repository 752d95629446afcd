import Courier
import Foundation
import Testing

@Suite("MultipartFormData")
struct MultipartFormDataTests {
    @Test("framing: boundary, headers, CRLF and the closing delimiter")
    func framing() throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append(Data("Ann".utf8), name: "author")
        form.append(Data([0, 1, 2]), name: "blob", fileName: "a\"b.bin", mimeType: "application/octet-stream")
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAnn\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"a%22b.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\u{2}\r\n--XyZ--\r\n"
        let encoded = try form.encoded()
        #expect(encoded == Data(expected.utf8))
        #expect(try form.contentLength() == UInt64(encoded.count))
        #expect(form.contentType == "multipart/form-data; boundary=XyZ")
    }

    @Test("a file part's name and MIME type are inferred, and can be overridden")
    func inference() throws {
        let folder = try Scratch.folder()
        let (url, _) = try Scratch.file(in: folder, name: "photo.PNG", size: 10)
        var form = MultipartFormData()
        form.append(fileURL: url, name: "a")
        form.append(fileURL: url, name: "b", fileName: "x.dat", mimeType: "image/x-custom")
        #expect(form.parts.map(\.fileName) == ["photo.PNG", "x.dat"])
        #expect(form.parts.map(\.mimeType) == ["image/png", "image/x-custom"])
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
    }

    @Test("a stream part is read afresh each time, and must give its declared length")
    func streams() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(length: 3, name: "s") { InputStream(data: Data("abc".utf8)) }
        #expect(try form.encoded() == form.encoded())
        var short = MultipartFormData(boundary: "b")
        short.append(length: 5, name: "s") { InputStream(data: Data("abc".utf8)) }
        #expect(throws: TransferError.streamLengthMismatch(part: "s", expected: 5, actual: 3)) { try short.encoded() }
    }

    @Test("a missing file part is a typed error")
    func missingFile() {
        var form = MultipartFormData()
        let missing = URL(fileURLWithPath: "/nonexistent/courier.txt")
        form.append(fileURL: missing, name: "f")
        #expect(throws: TransferError.fileNotReadable(missing)) { try form.contentLength() }
    }
}

@Suite("MultipartFormData headers")
struct MultipartHeaderTests {
    @Test("line breaks in a MIME type cannot start another header (found by fuzzing)")
    func mimeTypeInjection() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), name: "f", mimeType: "text/plain\r\nX-Injected: 1")
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        #expect(
            text
                == "--b\r\nContent-Disposition: form-data; name=\"f\"\r\nContent-Type: text/plainX-Injected: 1\r\n\r\nx\r\n--b--\r\n"
        )
    }
}
