import CompressNIO
import Courier
import Foundation
import NIOCore
import Testing

@testable import CourierAsyncHTTPClient

/// permessage-deflate's negotiation and its bounded inflating, without a network.
@Suite("WebSocket permessage-deflate: negotiation and limits")
struct SocketDeflateTests {
    typealias Agreement = SocketDeflate.Agreement

    @Test(
        "the server's answer, read as RFC 7692 allows",
        arguments: [
            ("permessage-deflate", Agreement()),
            ("permessage-deflate; server_no_context_takeover", Agreement(serverNoContextTakeover: true)),
            ("Permessage-Deflate;client_no_context_takeover", Agreement(clientNoContextTakeover: true)),
            ("permessage-deflate; client_max_window_bits=10", Agreement(clientMaxWindowBits: 10)),
            (
                "permessage-deflate; client_max_window_bits=\"12\"; server_max_window_bits=9",
                Agreement(clientMaxWindowBits: 12)
            ),
            // A window zlib cannot write: agreed, and this side sends uncompressed.
            ("permessage-deflate; client_max_window_bits=8", Agreement(clientMaxWindowBits: 8)),
            // A list's empty elements are no elements.
            (" , permessage-deflate ,", Agreement()),
        ])
    func agreed(_ answer: String, _ expected: Agreement) throws {
        #expect(try SocketDeflate.agreement([answer], offered: .deflate) == expected)
        #expect(expected.compressesSent == (expected.clientMaxWindowBits >= 9))
    }

    @Test("no answer: no compression, offered or not")
    func none() throws {
        #expect(try SocketDeflate.agreement([], offered: .deflate) == nil)
        #expect(try SocketDeflate.agreement([], offered: nil) == nil)
        #expect(try SocketDeflate.agreement([" , "], offered: nil) == nil)
    }

    @Test(
        "answers RFC 7692 refuses fail the handshake, without quoting the server's text",
        arguments: [
            "permessage-deflate; client_max_window_bits=7",
            "permessage-deflate; server_max_window_bits=16",
            "permessage-deflate; server_max_window_bits=+15",
            "permessage-deflate; server_max_window_bits=015",
            "permessage-deflate; server_max_window_bits",
            "permessage-deflate; server_no_context_takeover=1",
            "permessage-deflate; =",
            "permessage-deflate;;",
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate; token=secret-7f3a",
            "permessage-deflate, permessage-deflate",
            "x-webkit-deflate-frame",
            "permessage-deflate; client_max_window_bits=secret-7f3a",
        ])
    func refused(_ answer: String) {
        let error = #expect(throws: WebSocketError.self) { try SocketDeflate.agreement([answer], offered: .deflate) }
        guard case .invalidHandshake? = error else {
            Issue.record("expected invalidHandshake, got \(String(describing: error))")
            return
        }
        #expect(!"\(error!)".contains("secret-7f3a"))
    }

    @Test("an extension that was not offered fails the handshake")
    func notOffered() {
        #expect(throws: WebSocketError.self) { try SocketDeflate.agreement(["permessage-deflate"], offered: nil) }
    }

    @Test("messages compress and inflate back, across messages (context kept) and afresh", arguments: [false, true])
    func roundTrip(noContextTakeover: Bool) throws {
        let agreement = Agreement(
            serverNoContextTakeover: noContextTakeover, clientNoContextTakeover: noContextTakeover)
        // One side's compressor feeds the other side's decompressor: the same agreement for both.
        let sender = try SocketCompressor(agreement)
        let receiver = try SocketInflater(agreement, limit: 1 << 20)
        let allocator = ByteBufferAllocator()
        for index in 0..<50 {
            let text = String(repeating: "message \(index % 5) ", count: 40)
            let compressed = try #require(sender.compress(ByteBuffer(string: text), allocator: allocator))
            #expect(compressed.readableBytes < text.utf8.count / 4)
            #expect(try receiver.message(compressed, isText: true) == .text(text))
        }
        #expect(sender.compress(ByteBuffer(), allocator: allocator) == nil)
        #expect(receiver.inflated == 50)
    }

    @Test("a message that inflates past the limit fails with messageTooBig, at the limit passes")
    func limit() throws {
        let sender = try SocketCompressor(Agreement())
        let allocator = ByteBufferAllocator()
        let zeros = ByteBuffer(repeating: 0, count: 8 << 20)
        let compressed = try #require(sender.compress(zeros, allocator: allocator))
        #expect(compressed.readableBytes < 64 << 10)
        #expect(throws: WebSocketError.messageTooBig(limit: 1 << 20)) {
            try SocketInflater(Agreement(), limit: 1 << 20).message(compressed, isText: false)
        }
        let whole = try SocketInflater(Agreement(), limit: 8 << 20).message(compressed, isText: false)
        #expect(whole == .binary(Data(count: 8 << 20)))
    }

    @Test("messages whose sender ended its stream (BFINAL, RFC 7692 §7.2.3.4) inflate whole, one after another")
    func finalBlocks() throws {
        let receiver = try SocketInflater(Agreement(), limit: 1 << 20)
        let allocator = ByteBufferAllocator()
        for text in ["hello one", "hello two", "hello three"] {
            let sender = try ZlibCompressor(algorithm: .deflate)
            var input = ByteBuffer(string: text)
            var output = allocator.buffer(capacity: sender.maxSize(from: input))
            try sender.deflate(from: &input, to: &output, flush: .finish)
            #expect(try receiver.message(output, isText: true) == .text(text))
        }
    }

    @Test("bytes that are not deflate fail, typed")
    func garbage() throws {
        #expect(throws: WebSocketError.self) {
            try SocketInflater(Agreement(), limit: 1 << 20).message(
                ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x12]), isText: false)
        }
    }

    @Test("a compressed text message that is not UTF-8 once inflated fails with invalidUTF8")
    func invalidText() throws {
        let compressed = try #require(
            try SocketCompressor(Agreement()).compress(
                ByteBuffer(bytes: [0x61, 0xC3, 0x28, 0x62]), allocator: ByteBufferAllocator()))
        #expect(throws: WebSocketError.invalidUTF8) {
            try SocketInflater(Agreement(), limit: 1 << 20).message(compressed, isText: true)
        }
    }

    @Test("incompressible bytes at the limit fit the compressed limit")
    func incompressibleAtTheLimit() throws {
        var generator = SystemRandomNumberGenerator()
        let limit = 1 << 20
        let random = ByteBuffer(bytes: (0..<limit).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let compressed = try #require(
            try SocketCompressor(Agreement()).compress(random, allocator: ByteBufferAllocator()))
        #expect(compressed.readableBytes > limit)
        #expect(compressed.readableBytes <= SocketFrameHandler.compressedLimit(limit))
        #expect(try SocketInflater(Agreement(), limit: limit).message(compressed, isText: false).size == limit)
    }
}
