import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX socket calls the loopback server needs, with the platform differences in one place.
enum Socket {
    /// Why a socket call failed.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A listening TCP socket on 127.0.0.1 with `port`, or a port the system chose when it is 0,
    /// and that port.
    static func listenOnLoopback(port: UInt16 = 0, backlog: Int32 = 128) throws -> (descriptor: Int32, port: UInt16) {
        let (descriptor, bound) = try bindLoopback(port: port)
        guard listen(descriptor, backlog) == 0 else {
            let failure = Failure(call: "listen", code: errno)
            close(descriptor)
            throw failure
        }
        return (descriptor, bound)
    }

    /// A TCP socket bound to 127.0.0.1 with `port` (or one the system chose), not listening: a
    /// connection to it is refused, and no other socket can take the port while it is open.
    static func bindLoopback(port: UInt16 = 0) throws -> (descriptor: Int32, port: UInt16) {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            // Glibc and Musl import SOCK_STREAM as an enum case, not an Int32.
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let failure = Failure(call: "bind", code: errno)
            close(descriptor)
            throw failure
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// Waits up to `milliseconds` for the socket to become readable (a connection to accept).
    /// Polling keeps the accept loop responsive to ``LoopbackServer/stop()`` on every platform:
    /// shutting a listening socket down wakes a blocked `accept` on Linux but not on Darwin.
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Accepts a connection; `nil` once the listening socket is shut down.
    static func accept(_ descriptor: Int32) -> Int32? {
        while true {
            #if canImport(Darwin)
                let client = Darwin.accept(descriptor, nil, nil)
            #elseif canImport(Musl)
                let client = Musl.accept(descriptor, nil, nil)
            #else
                let client = Glibc.accept(descriptor, nil, nil)
            #endif
            if client >= 0 {
                #if canImport(Darwin)
                    // Darwin has no MSG_NOSIGNAL; this keeps a write to a closed peer from
                    // raising SIGPIPE.
                    var yes: Int32 = 1
                    setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return client
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Reads up to `capacity` bytes; an empty result means the peer closed or an error occurred.
    static func read(_ descriptor: Int32, capacity: Int = 64 * 1024) -> Data {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, capacity, 0) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return Data()
        }
    }

    /// Writes all of `data`; `false` when the peer is gone.
    @discardableResult
    static func write(_ descriptor: Int32, _ data: Data) -> Bool {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        return data.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, flags)
                if sent < 0 && errno == EINTR { continue }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Stops reads and writes on the socket, waking any thread blocked on it.
    static func shutdown(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #elseif canImport(Musl)
            _ = Musl.shutdown(descriptor, Int32(SHUT_RDWR))
        #else
            _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }

    /// Closes the descriptor.
    static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
    }
}
