import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response head as Courier takes it, and the reading of a whole body into memory or a file.
struct ResponseHead: Sendable {
    let statusCode: Int
    /// The fields in the order received, repeated names kept apart.
    let fields: HeaderFields
    /// The URL that answered.
    let url: URL
    /// The body's announced length, for progress.
    let expectedLength: Int64?
    /// The HTTP version, as OpenTelemetry's `network.protocol.version` spells it: `1.1`, `2`.
    let protocolVersion: String

    init(_ response: HTTPClientResponse, request: TransportRequest) {
        self.init(status: response.status, headers: response.headers, version: response.version, request: request)
    }

    init(_ head: HTTPResponseHead, request: TransportRequest) {
        self.init(status: head.status, headers: head.headers, version: head.version, request: request)
    }

    private init(status: HTTPResponseStatus, headers: HTTPHeaders, version: HTTPVersion, request: TransportRequest) {
        statusCode = Int(status.code)
        fields = HeaderFields(headers.map { HeaderFields.Field(name: $0.name, value: $0.value) })
        url = request.urlRequest.url ?? URL(fileURLWithPath: "/")
        expectedLength = headers.first(name: "content-length").flatMap { Int64($0) }
        protocolVersion = Self.spelled(version)
    }

    /// `1.0`, `1.1`, `2` or `3`: a minor version is written only for HTTP/1.
    private static func spelled(_ version: HTTPVersion) -> String {
        switch (version.major, version.minor) {
        case (1, 1): "1.1"
        case (1, 0): "1.0"
        case (let major, 0) where major >= 2: String(major)
        case (let major, let minor): "\(major).\(minor)"
        }
    }

    /// `response` with the head's protocol version recorded.
    func recorded(_ response: TransportResponse) -> TransportResponse {
        var response = response
        response.protocolVersion = protocolVersion
        return response
    }

    /// Reads `body` whole: into memory, or into a temporary file for a download.
    func collect(_ body: HTTPClientResponse.Body, for request: TransportRequest) async throws -> TransportResponse {
        var progress = DownloadProgress(expected: expectedLength, report: request.progress)
        guard request.delivery == .file else {
            var data = Data()
            if let expectedLength, expectedLength > 0, expectedLength < 64 << 20 {
                data.reserveCapacity(Int(expectedLength))
            }
            for try await buffer in body {
                buffer.withUnsafeReadableBytes { data.append(contentsOf: $0) }
                progress.add(buffer.readableBytes)
            }
            return recorded(TransportResponse(statusCode: statusCode, headerFields: fields, url: url, data: data))
        }
        let file = try DownloadFile()
        do {
            for try await buffer in body {
                guard file.write(Data(buffer: buffer, byteTransferStrategy: .noCopy)) else {
                    throw TransferError.cannotWriteFile(file.url)
                }
                progress.add(buffer.readableBytes)
            }
            guard file.flush() else { throw TransferError.cannotWriteFile(file.url) }
            file.close()
        } catch {
            file.delete()
            throw error
        }
        return recorded(
            TransportResponse(statusCode: statusCode, headerFields: fields, url: url, data: Data(), fileURL: file.url))
    }
}

/// Download progress: bytes received so far against the announced length.
struct DownloadProgress {
    let expected: Int64?
    let report: (@Sendable (TransferProgress) -> Void)?
    private(set) var received: Int64 = 0

    init(expected: Int64?, report: (@Sendable (TransferProgress) -> Void)?) {
        (self.expected, self.report) = (expected, report)
    }

    mutating func add(_ count: Int) {
        guard let report, count > 0 else { return }
        received += Int64(count)
        report(TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected))
    }
}
