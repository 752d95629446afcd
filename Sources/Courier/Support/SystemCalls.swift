import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// `write` and `close` are also names of methods of the types that call these (and of
// `InputStream`/`OutputStream`); these reach the system calls, whatever the C library.

/// `write(2)`.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.write(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
    #else
        Glibc.write(descriptor, buffer, count)
    #endif
}

/// Writes all of `data` to `descriptor`, again after an interrupted `write(2)`.
/// - Returns: `false` when a write failed (a full disk, say).
func systemWriteAll(_ data: Data, to descriptor: Int32) -> Bool {
    data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

/// `close(2)`.
func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        Darwin.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #else
        Glibc.close(descriptor)
    #endif
}

/// `rename(2)`: replaces `destination` with `source` in one step on the same file system.
func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
