import Foundation
import Gateway

// courier-gateway [port] [upstream URL]: the gateway on 127.0.0.1; without an upstream, it starts
// the demo's own (an order service with client-credential tokens).
let arguments = CommandLine.arguments.dropFirst()
let port = arguments.first.flatMap(Int.init) ?? 8080
let upstream = arguments.dropFirst().first.flatMap(URL.init(string:))
try await GatewayMain.run(port: port, upstream: upstream)
