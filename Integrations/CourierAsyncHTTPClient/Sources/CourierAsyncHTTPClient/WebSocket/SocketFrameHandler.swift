import Courier
import Foundation
import NIOCore
import NIOWebSocket

/// The frames of one open socket, on its channel's event loop: joins fragments within the
/// message limit, validates text, answers pings, matches pongs, runs the close handshake, and
/// reads from the network only while someone waits (the channel's `autoRead` is off), so a
/// reader that stops asking stops the reading. A receive takes every event read so far at once:
/// one hop to the event loop per read, not per message.
final class SocketFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let maximumMessageSize: Int
    /// Sends queued by any task, written by ``drain()``.
    let sends = SocketSendQueue()
    private var context: ChannelHandlerContext?
    /// Events read and not yet received: at most one read's worth of frames (compressed
    /// messages stay compressed until their reader takes them).
    private var events = CircularBuffer<SocketEvent>()
    /// The readers waiting for what the network brings (two readers may wait at once: each then
    /// takes from the inbox what the read brought).
    private var receivers: [EventLoopPromise<Void>] = []
    /// Where the events read go once a reader asks, in the order they were read.
    private let inbox: SocketInbox
    private var pings: [UInt64: EventLoopPromise<Void>] = [:]
    private var nextPing: UInt64 = 0
    private var fragments: ByteBuffer?
    private var fragmentsAreText = false
    /// Whether the message being read is compressed (its first frame's RSV1).
    private var fragmentsAreCompressed = false
    /// Whether the handshake agreed permessage-deflate (RSV1 then marks a compressed message).
    private let compressionAgreed: Bool
    /// The largest compressed message read: deflate may make incompressible bytes a little
    /// larger, so that a message within the limit once inflated is still read.
    private let compressedMessageLimit: Int
    /// Compresses the messages sent, when the handshake agreed it and this side can.
    private let compressor: SocketCompressor?
    /// Set once this side sent its close frame; completed by the peer's close or the end.
    private var closing: EventLoopPromise<Void>?
    /// Whether the peer's close frame arrived (the end is then not a lost connection).
    private var peerClosed = false
    /// Whether this side's close frame went out (first, or as the answer to the peer's).
    private var closeSent = false
    /// Why the socket ended, for every call after.
    private var ended: (any Error)?

    /// - Parameters:
    ///   - maximumMessageSize: The largest message read.
    ///   - agreement: What the handshake agreed of permessage-deflate, if anything.
    /// - Throws: When zlib cannot set up its stream.
    init(maximumMessageSize: Int, agreement: SocketDeflate.Agreement?, inbox: SocketInbox) throws {
        self.maximumMessageSize = maximumMessageSize
        self.inbox = inbox
        compressionAgreed = agreement != nil
        compressedMessageLimit = Self.compressedLimit(maximumMessageSize)
        compressor = try agreement.flatMap { $0.compressesSent ? try SocketCompressor($0) : nil }
    }

    /// The most bytes deflate makes of `limit` bytes (zlib's `deflateBound`, and some).
    static func compressedLimit(_ limit: Int) -> Int {
        let (bound, overflow) = limit.addingReportingOverflow((limit >> 12) + (limit >> 14) + 64)
        return overflow ? Int.max : bound
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // A server that closed right after its 101 closed the channel before this handler was
        // there to see it: the frames read before the end still come, then the end.
        if !context.channel.isActive {
            end(TransportFailure(kind: .connectionLost, underlyingError: ChannelError.eof))
        }
    }

    // MARK: Calls from the connection (on the event loop)

    /// Moves every event read and not yet received (one read's worth at most) to the inbox and
    /// completes `promise`, or does so with the next event when there is none yet.
    func receive(_ promise: EventLoopPromise<Void>) {
        if !events.isEmpty {
            inbox.append(events)
            events.removeAll(keepingCapacity: true)
            return promise.succeed()
        }
        if let ended { return promise.fail(ended) }
        guard context?.channel.isActive == true else {
            let lost = TransportFailure(kind: .connectionLost, underlyingError: ChannelError.eof)
            end(peerClosed ? WebSocketError.closed(.normalClosure, reason: "") : lost)
            return promise.fail(ended ?? lost)
        }
        receivers.append(promise)
        demand()
    }

    func send(_ message: WebSocketMessage, _ promise: EventLoopPromise<Void>) {
        guard let context, ended == nil, closing == nil else {
            return promise.fail(ended ?? WebSocketError.closed(.normalClosure, reason: ""))
        }
        context.writeAndFlush(wrapOutboundOut(frame(message, context.channel.allocator)), promise: promise)
    }

    /// Writes every queued send, in order, with one flush. Sends queued after the socket ended
    /// are dropped, as frames written to a lost connection are.
    func drain() {
        let messages = sends.take()
        guard let context, ended == nil, closing == nil else { return }
        for message in messages {
            context.write(wrapOutboundOut(frame(message, context.channel.allocator)), promise: nil)
        }
        context.flush()
    }

    /// A message's frame: masked, and compressed when the handshake agreed it.
    private func frame(_ message: WebSocketMessage, _ allocator: ByteBufferAllocator) -> WebSocketFrame {
        var data = allocator.buffer(capacity: message.size)
        switch message {
        case .text(let text): data.writeString(text)
        case .binary(let bytes): data.writeBytes(bytes)
        }
        let opcode: WebSocketOpcode = message.opcode == 1 ? .text : .binary
        if let compressed = compressor?.compress(data, allocator: allocator) {
            return WebSocketFrame(fin: true, rsv1: true, opcode: opcode, maskKey: .random(), data: compressed)
        }
        return WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }

    func ping(_ promise: EventLoopPromise<Void>) {
        guard let context, ended == nil else { return promise.fail(ended ?? ChannelError.ioOnClosedChannel) }
        nextPing &+= 1
        var data = context.channel.allocator.buffer(capacity: 8)
        data.writeInteger(nextPing)
        pings[nextPing] = promise
        write(.ping, data, nil)
        demand()
    }

    /// A caller stopped waiting for `future`: its promise (a receive's or a ping's) fails with
    /// `CancellationError`, if the handler still holds it.
    func abandon<Value>(_ future: EventLoopFuture<Value>) {
        if let index = receivers.firstIndex(where: { $0.futureResult === future }) {
            receivers.remove(at: index).fail(CancellationError())
        }
        if let (id, ping) = pings.first(where: { $0.value.futureResult === future }) {
            pings[id] = nil
            ping.fail(CancellationError())
        }
    }

    /// Sends the close frame and completes `promise` when the peer's close arrives or the
    /// connection ends; the connection closes then, or after `timeout`.
    func close(code: WebSocketCloseCode, reason: String, timeout: TimeAmount, _ promise: EventLoopPromise<Void>) {
        guard let context, ended == nil else { return promise.succeed() }
        if let closing { return closing.futureResult.cascade(to: promise) }
        let closing = context.eventLoop.makePromise(of: Void.self)
        self.closing = closing
        sends.shut()
        closing.futureResult.cascade(to: promise)
        sendClose(code, reason)
        let channel = context.channel
        let deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        closing.futureResult.whenComplete { _ in
            deadline.cancel()
            channel.close(promise: nil)
        }
        if peerClosed { closing.succeed() } else { demand() }
    }

    /// Ends a connection found dead: a close frame with 1001 if one can still go, and the
    /// connection closed at once (a waiting receive then fails with `connectionLost`).
    func abort() {
        guard let context else { return }
        sendClose(.goingAway, "")
        // Ended now, not when the channel goes inactive: a TLS connection first waits for the
        // peer's close_notify, which a dead peer never sends.
        end(TransportFailure(kind: .connectionLost, underlyingError: ChannelError.ioOnClosedChannel))
        context.channel.close(promise: nil)
    }

    // MARK: The channel

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.maskKey == nil else { return fail(.protocolViolation("a masked frame from the server"), 1002) }
        // RSV1 marks a compressed message's first frame when permessage-deflate was agreed; no
        // other reserved bit has a meaning (RFC 6455 §5.2, RFC 7692 §6).
        let compressedStart = compressionAgreed && (frame.opcode == .text || frame.opcode == .binary)
        guard !frame.rsv2, !frame.rsv3, !frame.rsv1 || compressedStart else {
            return fail(.protocolViolation("a frame with a reserved bit set that no extension gives a meaning"), 1002)
        }
        switch frame.opcode {
        case .text, .binary, .continuation: message(frame)
        case .ping: if closing == nil { write(.pong, frame.unmaskedData, nil) }
        case .pong:
            var data = frame.unmaskedData
            if let id = data.readInteger(as: UInt64.self) { pings.removeValue(forKey: id)?.succeed() }
        case .connectionClose: peerClose(frame.unmaskedData)
        default: fail(.protocolViolation("a frame with reserved opcode \(frame.opcode)"), 1002)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        sends.setWritable(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        demand()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let lost = TransportFailure(kind: .connectionLost, underlyingError: ChannelError.eof)
        end(peerClosed ? WebSocketError.closed(.normalClosure, reason: "") : lost)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The decoder's errors; NIO's protocol error handler sends their close frame.
        switch error as? NIOWebSocketError {
        case .invalidFrameLength?: deliver(.failure(WebSocketError.messageTooBig(limit: maximumMessageSize)))
        case .some(let problem): deliver(.failure(WebSocketError.protocolViolation("\(problem)")))
        case nil: deliver(.failure(AsyncHTTPClientFailure.map(error)))
        }
        context.close(promise: nil)
    }

    // MARK: Messages and the end

    private func message(_ frame: WebSocketFrame) {
        if frame.opcode == .continuation {
            guard fragments != nil else { return fail(.protocolViolation("a continuation without a message"), 1002) }
        } else {
            guard fragments == nil else {
                return fail(.protocolViolation("a new message inside a fragmented one"), 1002)
            }
            fragmentsAreText = frame.opcode == .text
            fragmentsAreCompressed = frame.rsv1
            // A message in one frame is delivered from the frame's own bytes.
            if frame.fin { return whole(frame.unmaskedData) }
            fragments = context?.channel.allocator.buffer(capacity: frame.length)
        }
        var data = frame.unmaskedData
        guard (fragments?.readableBytes ?? 0) + data.readableBytes <= limitOfMessage else {
            return fail(.messageTooBig(limit: maximumMessageSize), 1009)
        }
        fragments?.writeBuffer(&data)
        guard frame.fin, let joined = fragments else { return }
        fragments = nil
        whole(joined)
    }

    /// The limit of the message being read, as it travels.
    private var limitOfMessage: Int {
        fragmentsAreCompressed ? compressedMessageLimit : maximumMessageSize
    }

    /// A whole message's payload (the decoder held each frame to the limit, the joining the
    /// message). A compressed one goes to the reader as it is, to be inflated when taken.
    private func whole(_ payload: ByteBuffer) {
        guard payload.readableBytes <= limitOfMessage else {
            return fail(.messageTooBig(limit: maximumMessageSize), 1009)
        }
        if fragmentsAreCompressed { return hand(.compressed(payload, isText: fragmentsAreText)) }
        guard fragmentsAreText else { return deliver(.success(.message(.binary(Data(payload.readableBytesView))))) }
        guard let text = String(validating: payload.readableBytesView, as: UTF8.self) else {
            return fail(.invalidUTF8, 1007)
        }
        deliver(.success(.message(.text(text))))
    }

    private func peerClose(_ payload: ByteBuffer) {
        var payload = payload
        let code = payload.readInteger(as: UInt16.self).map { WebSocketCloseCode(rawValue: $0) } ?? .noStatusReceived
        let reason = payload.readString(length: payload.readableBytes) ?? ""
        peerClosed = true
        if let closing {
            closing.succeed()
        } else {
            // The peer closed first: the close is answered by the reader's `close`, with its code.
            deliver(.success(.closed(code, reason: reason)))
        }
    }

    /// Fails the socket with a message the reader could not inflate: closes with the code the
    /// error calls for (1009, 1007, else 1002), drops what was read after it, and ends the
    /// connection. The reader throws the error itself.
    func failFromReader(_ error: WebSocketError) {
        events.removeAll()
        let code: UInt16
        switch error {
        case .messageTooBig: code = 1009
        case .invalidUTF8: code = 1007
        default: code = 1002
        }
        guard let context, ended == nil else { return }
        sendClose(WebSocketCloseCode(rawValue: code), "")
        end(error)
        context.channel.close(promise: nil)
    }

    /// Fails the socket with `error`: closes with `code`, then ends the connection.
    private func fail(_ error: WebSocketError, _ code: UInt16) {
        guard let context, ended == nil else { return }
        sendClose(WebSocketCloseCode(rawValue: code), "")
        deliver(.failure(error))
        end(error)
        context.channel.close(promise: nil)
    }

    private func deliver(_ event: Result<WebSocketEvent, any Error>) {
        hand(.ready(event))
    }

    /// Hands `event` to the inbox when a reader waits (and wakes the readers), or keeps it for
    /// the next receive.
    private func hand(_ event: SocketEvent) {
        guard !receivers.isEmpty else { return events.append(event) }
        inbox.append(event)
        let waiting = receivers
        receivers = []
        for receiver in waiting { receiver.succeed() }
    }

    private func end(_ error: any Error) {
        guard ended == nil else { return }
        ended = error
        sends.shut()
        let waiting = receivers
        receivers = []
        for receiver in waiting { receiver.fail(error) }
        for (_, ping) in pings { ping.fail(error) }
        pings = [:]
        closing?.succeed()
    }

    /// Reads more while someone waits for what the network brings.
    private func demand() {
        guard let context, ended == nil, events.isEmpty else { return }
        if !receivers.isEmpty || !pings.isEmpty || closing != nil { context.read() }
    }

    /// This side's close frame, once.
    private func sendClose(_ code: WebSocketCloseCode, _ reason: String) {
        guard let context, !closeSent else { return }
        closeSent = true
        write(.connectionClose, Self.closePayload(code, reason, context.channel.allocator), nil)
    }

    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer, _ promise: EventLoopPromise<Void>?) {
        guard let context else { return }
        let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
        context.writeAndFlush(wrapOutboundOut(frame), promise: promise)
    }

    private static func closePayload(_ code: WebSocketCloseCode, _ reason: String, _ allocator: ByteBufferAllocator)
        -> ByteBuffer
    {
        var data = allocator.buffer(capacity: 2 + reason.utf8.count)
        data.writeInteger(code.rawValue)
        data.writeString(reason)
        return data
    }
}
