import Foundation

/// A certificate authority made for one test run with the `openssl` tool, and certificates it
/// signs: for a server on 127.0.0.1, and for a client. Valid for a day; deleted with `remove()`.
struct TestCertificateAuthority {
    let folder: URL
    var caCertificate: URL { folder.appendingPathComponent("ca.pem") }
    var serverCertificate: URL { folder.appendingPathComponent("server.pem") }
    var serverKey: URL { folder.appendingPathComponent("server.key") }
    var clientCertificate: URL { folder.appendingPathComponent("client.pem") }
    var clientKey: URL { folder.appendingPathComponent("client.key") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + curve + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=Courier Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try sign(
            "server", subject: "/CN=127.0.0.1",
            extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
        try sign("client", subject: "/CN=Courier Test Client", extensions: "extendedKeyUsage=clientAuth\n")
    }

    /// Another server certificate for 127.0.0.1 and localhost, with a key of its own.
    /// - Returns: The certificate's and the key's files.
    func issueServerCertificate(_ name: String) throws -> (certificate: URL, key: URL) {
        try sign(
            name, subject: "/CN=127.0.0.1",
            extensions: "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
        return (folder.appendingPathComponent("\(name).pem"), folder.appendingPathComponent("\(name).key"))
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func sign(_ name: String, subject: String, extensions: String) throws {
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(["req"] + curve + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject])
        try Data(("basicConstraints=CA:FALSE\n" + extensions).utf8).write(
            to: folder.appendingPathComponent("\(name).ext"))
        try run([
            "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "\(name).pem", "-days", "1", "-extfile", "\(name).ext",
        ])
    }

    private func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CertificateError(
                description:
                    "openssl \(arguments.prefix(2).joined(separator: " ")) failed (status \(process.terminationStatus)); is openssl installed?"
            )
        }
    }
}

/// Why the test certificates could not be made.
struct CertificateError: Error, CustomStringConvertible {
    let description: String
}
