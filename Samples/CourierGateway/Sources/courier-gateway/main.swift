import Foundation
import Gateway

// courier-gateway [port] [upstream URL]: the gateway on 127.0.0.1; without an upstream, it starts
// the demo's own (an order service with client-credential tokens).
// courier-gateway upstream <port> [cache-control]: the demo's upstream alone, its orders with that
// Cache-Control field (`max-age=1` by default), for `chaos`, which stops and restarts it under load.
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "upstream" {
    try await GatewayMain.runUpstream(
        port: arguments.dropFirst().first.flatMap(Int.init) ?? 8081,
        cacheControl: arguments.dropFirst(2).first ?? "max-age=1")
} else {
    let port = arguments.first.flatMap(Int.init) ?? 8080
    let upstream = arguments.dropFirst().first.flatMap(URL.init(string:))
    try await GatewayMain.run(port: port, upstream: upstream)
}
