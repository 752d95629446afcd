import Foundation

/// One client connection of the ``LoopbackServer``: reads HTTP/1.1 requests one after another
/// (keep-alive), hands each to the handler and writes the reply.
struct HTTPConnection {
    let descriptor: Int32
    let handle: @Sendable (ServerRequest) -> ServerReply

    /// Serves requests until the client closes the connection or asks to.
    func serve() {
        var reader = HTTPRequestReader(
            read: { Socket.read(descriptor) },
            continueRequested: { Socket.write(descriptor, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) })
        while true {
            switch reader.next() {
            case .closed:
                return
            case .invalid(let status):
                Socket.write(descriptor, ServerReply(status: status).serialized())
                return
            case .request(let request):
                let reply = handle(request)
                if reply.closesWithoutReply { return }
                if let steps = reply.rawSteps {
                    play(steps)
                    reply.takeover?(descriptor)
                    return
                }
                guard Socket.write(descriptor, reply.serialized()), reply.cutsBodyAfter == nil else {
                    if reply.stallsInsteadOfClosing { while !Socket.read(descriptor).isEmpty {} }
                    return
                }
                if request.header("Connection")?.lowercased() == "close" { return }
            }
        }
    }

    /// Plays raw steps; the caller closes the connection afterwards.
    private func play(_ steps: [ServerReply.RawStep]) {
        for step in steps {
            switch step {
            case .send(let data): guard Socket.write(descriptor, data) else { return }
            case .sendRepeated(let data, let count):
                for _ in 0..<count where !Socket.write(descriptor, data) { return }
            case .pause(let seconds): Thread.sleep(forTimeInterval: seconds)
            case .stall: while !Socket.read(descriptor).isEmpty {}
            case .run(let body): body()
            }
        }
    }
}
