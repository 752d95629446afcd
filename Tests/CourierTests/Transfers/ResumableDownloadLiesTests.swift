import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resumable downloads against servers that lie (``RangedResource``'s lying modes): nothing a lie
/// sent stays in the partial file, and the next call against an honest server gives the right file.
@Suite("Resumable downloads against lying servers")
struct ResumableDownloadLiesTests {
    /// A served file of `size` bytes, its server, and a destination in a fresh folder.
    private struct Setup {
        let resource: RangedResource
        let server: LoopbackServer
        let file: URL
        let target: TransferTarget

        init(size: Int) throws {
            let folder = try Scratch.folder()
            let (_, data) = try Scratch.file(in: folder, name: "source", size: size)
            let resource = RangedResource(data)
            self.resource = resource
            server = try LoopbackServer { resource.reply(to: $0) }
            file = folder.appendingPathComponent("download.bin")
            target = TransferTarget(baseURL: server.baseURL, path: "file", method: .get, task: .requestPlain)
        }

        /// The partial file's bytes.
        var partial: Data { (try? Data(contentsOf: file.appendingPathExtension("courier-partial"))) ?? Data() }

        /// A first call cut after `bytes`, which leaves them to resume.
        func cutFirstCall(after bytes: Int, _ provider: Provider<TransferTarget>) async {
            resource.cutNext(after: bytes)
            _ = try? await provider.download(target, resumingInto: file)
        }
    }

    @Test(
        "a 206 whose Content-Length exceeds its Content-Range is refused before its body: nothing written, the next call is right",
        arguments: [true, false])
    func bodyLongerThanItsRange(declaringLength: Bool) async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        let provider = Provider<TransferTarget>()
        await setup.cutFirstCall(after: 100_000, provider)
        setup.resource.overrunRanges(by: 50_000, declaringLength: declaringLength)

        let error = await #expect(throws: CourierError.self) {
            try await provider.download(setup.target, resumingInto: setup.file)
        }
        let range = (1 << 20) - 100_000
        let received = declaringLength ? "a Content-Length of \(range + 50_000)" : "more than \(range) bytes"
        #expect(
            error?.underlyingError as? TransferError == .rangeMismatch(expected: "\(range) bytes", received: received))
        #expect(Bool(setup.partial == setup.resource.body.prefix(100_000)))
        #expect(ResumableDownload.resumableLength(of: setup.file) == 100_000)

        setup.resource.overrunRanges(by: nil)
        _ = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(Bool(try Data(contentsOf: setup.file) == setup.resource.body))
        #expect(setup.resource.rangesAsked.last == "bytes=100000-")
    }

    @Test("a server that ignores If-Range sends a changed file's range with its new ETag: the download starts over")
    func rangeOfAnotherVersion() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        let provider = Provider<TransferTarget>()
        await setup.cutFirstCall(after: 300_000, provider)
        setup.resource.ignoresIfRange = true
        setup.resource.change(to: Data(repeating: 0x5A, count: 1 << 20))

        let response = try await provider.download(setup.target, resumingInto: setup.file)
        #expect(response.statusCode == 200)
        #expect(Bool(try Data(contentsOf: setup.file) == Data(repeating: 0x5A, count: 1 << 20)))
        #expect(setup.resource.rangesAsked == [nil, "bytes=300000-", nil])
    }

    @Test("two resources that differ by their query, into one destination, never share the partial file")
    func queryNamesAnotherResource() async throws {
        let folder = try Scratch.folder()
        let (_, first) = try Scratch.file(in: folder, name: "first", size: 1 << 20)
        // The same length, so the same ETag: only the query tells the two apart.
        let resources = [RangedResource(first), RangedResource(Data(repeating: 0x33, count: 1 << 20))]
        let server = try LoopbackServer { resources[$0.query == "v=2" ? 1 : 0].reply(to: $0) }
        defer { server.stop() }
        let file = folder.appendingPathComponent("download.bin")
        let provider = Provider<TransferTarget>()
        func version(_ number: Int) -> TransferTarget {
            TransferTarget(
                baseURL: server.baseURL, path: "file", method: .get,
                task: .requestParameters(parameters: ["v": number], encoding: URLEncoding.queryString))
        }
        resources[0].cutNext(after: 300_000)
        _ = try? await provider.download(version(1), resumingInto: file)
        #expect(ResumableDownload.resumableLength(of: file) == 300_000)

        _ = try await provider.download(version(2), resumingInto: file)
        #expect(Bool(try Data(contentsOf: file) == resources[1].body))
        #expect(resources[1].rangesAsked == [nil])
    }

    @Test("a presigned URL whose signature changed between calls still resumes")
    func signatureIsNotTheResource() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        let provider = Provider<TransferTarget>()
        func signed(_ signature: String) -> TransferTarget {
            var target = setup.target
            target.task = .requestParameters(
                parameters: ["X-Amz-Signature": signature, "X-Amz-Date": signature, "Expires": signature],
                encoding: URLEncoding.queryString)
            return target
        }
        setup.resource.cutNext(after: 300_000)
        _ = try? await provider.download(signed("1"), resumingInto: setup.file)
        _ = try await provider.download(signed("2"), resumingInto: setup.file)
        #expect(Bool(try Data(contentsOf: setup.file) == setup.resource.body))
        #expect(setup.resource.rangesAsked == [nil, "bytes=300000-"])
    }
}
