import Courier
import Foundation
import Testing

/// The trust policy's rules, without a network: host patterns as OkHttp defines them, pins,
/// backup pins, expiry, report-only, and the failure's text.
@Suite("Trust policy")
struct TrustPolicyTests {
    /// SHA-256 of "abc" (FIPS 180-2's example), as a pin.
    static let abc = "sha256/ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
    static let other = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
    static let backup = "sha256/" + Data(repeating: 9, count: 32).base64EncodedString()

    @Test(
        "host patterns: exact, *. for one label, **. for any number including none",
        arguments: [
            ("api.example.com", "api.example.com", true), ("api.example.com", "API.Example.com.", true),
            ("api.example.com", "www.example.com", false), ("*.example.com", "www.example.com", true),
            ("*.example.com", "example.com", false), ("*.example.com", "a.b.example.com", false),
            ("*.example.com", "wwwexample.com", false), ("**.example.com", "example.com", true),
            ("**.example.com", "a.b.example.com", true), ("**.example.com", "badexample.com", false),
        ])
    func patterns(pattern: String, host: String, matches: Bool) throws {
        #expect(try HostPattern(pattern).matches(host) == matches)
    }

    @Test("a pattern with a wildcard elsewhere, an empty label or a bad character is refused")
    func badPatterns() {
        for pattern in ["", "*.", "a.*.com", "*", "**", "exa mple.com", "a..com", "*.*.com", "ex/ample.com"] {
            #expect(throws: TrustPolicyError.invalidHostPattern(pattern)) { try HostPattern(pattern) }
        }
    }

    @Test("a pin is sha256/ and 32 bytes in Base64; one made from a key's bytes is its SHA-256")
    func pins() throws {
        #expect(SPKIPin(subjectPublicKeyInfo: Array("abc".utf8)).description == Self.abc)
        #expect(try SPKIPin(Self.abc) == SPKIPin(subjectPublicKeyInfo: Array("abc".utf8)))
        for bad in [
            "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=", "sha1/ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=",
            "sha256/AAAA", "sha256/not base64!",
        ] {
            #expect(throws: TrustPolicyError.invalidPin(bad)) { try SPKIPin(bad) }
        }
    }

    @Test("a pin set needs a backup: two different pins at least")
    func backupRequired() throws {
        var policy = TrustPolicy()
        #expect(throws: TrustPolicyError.missingBackupPin("api.example.com")) {
            try policy.pin("api.example.com", to: [Self.abc])
        }
        #expect(throws: TrustPolicyError.missingBackupPin("api.example.com")) {
            try policy.pin("api.example.com", to: [Self.abc, Self.abc])
        }
        try policy.pin("api.example.com", to: [Self.abc, Self.backup])
        #expect(policy.pinSets.count == 1)
    }

    @Test("a host's pins are every unexpired matching set's; after the expiry nothing is enforced")
    func expiry() throws {
        let now = Date()
        var policy = TrustPolicy()
        try policy.pin("**.example.com", to: [Self.abc, Self.backup], expires: now.addingTimeInterval(60))
        try policy.pin("api.example.com", to: [Self.other, Self.backup])
        #expect(policy.pins(for: "api.example.com", at: now).count == 3)
        #expect(policy.pins(for: "api.example.com", at: now.addingTimeInterval(120)).count == 2)
        #expect(policy.pins(for: "www.example.com", at: now.addingTimeInterval(120)).isEmpty)
        #expect(!policy.applies(to: "www.example.com", at: now.addingTimeInterval(120)))
        #expect(policy.applies(to: "www.example.com", at: now))
        #expect(TrustPolicy(roots: .only([Data()])).applies(to: "anything.test"))
    }

    @Test("a chain with one pinned key passes; one without fails, reported with both sides")
    func evaluation() throws {
        let reports = Locked<[TrustFailure]>([])
        var policy = TrustPolicy(report: { failure in reports.withLock { $0.append(failure) } })
        try policy.pin("api.example.com", to: [Self.abc, Self.backup])
        let leaf = try SPKIPin(Self.other)
        let root = try SPKIPin(Self.abc)
        #expect(policy.evaluate(host: "api.example.com", chain: [leaf, root]) == nil)
        #expect(policy.evaluate(host: "other.example.com", chain: [leaf]) == nil)
        let failure = try #require(policy.evaluate(host: "api.example.com", chain: [leaf]))
        #expect(reports.value == [failure])
        let text = failure.description
        #expect(text.hasPrefix("Certificate pinning failure for api.example.com!"))
        #expect(text.contains("Peer certificate chain:\n    \(Self.other)"))
        #expect(text.contains(Self.abc) && text.contains(Self.backup))
    }
}
