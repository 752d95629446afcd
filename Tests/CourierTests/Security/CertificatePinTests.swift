import Courier
import Foundation
import Testing

/// ``SPKIPin/init(certificate:)``: the pin of a certificate's key, read from DER or PEM, against
/// the pins the Security article's `openssl` one-liner printed for the same certificates; bad
/// input is a typed error, never a crash.
@Suite("Pins from certificates")
struct CertificatePinTests {
    /// A self-signed RSA 2048 certificate (X.509 v3); its key's pin, by openssl.
    static let rsa = """
        -----BEGIN CERTIFICATE-----
        MIIDFzCCAf+gAwIBAgIUGVR/Hxl3sh8Fjmjx018DKnKGnC0wDQYJKoZIhvcNAQEL
        BQAwGzEZMBcGA1UEAwwQcnNhLmZpeHR1cmUudGVzdDAeFw0yNjExMjcxNzIxMzNa
        Fw0zNjExMjQxNzIxMzNaMBsxGTAXBgNVBAMMEHJzYS5maXh0dXJlLnRlc3QwggEi
        MA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQC2twKGznk96jl1p3V6YP2xYhrG
        EwQufKq3JbHp8Iq52FmbjTsIznWEXBMBC8cwW68afAHLl3wY2YPIuYWioujx7E5d
        ucG9fYsfopzV2TbFEGAbFmhqUeO8hLnQLDAqf2c/+g5Pe8VWX+KFcEWkM4VK4/XJ
        lw3jR7s9yXuuZdgs58PoVityocbEOjPBEDGlDsVLj7gJxBSQmTb9XF4S3SKgPW1A
        g4gcSR2TCSs86todh4aste5hnpZi4CJI+Dx50P7Qxc9vOSaR5Vqb42nW05PplC4G
        f6LbSCncHupXbaXrdAXI6nIzGcJMOwaqCJSCgN727Qw+IB58GS7Dio6tSSbzAgMB
        AAGjUzBRMB0GA1UdDgQWBBQupX9SHVe6E5kSoHUOXHD176sysjAfBgNVHSMEGDAW
        gBQupX9SHVe6E5kSoHUOXHD176sysjAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3
        DQEBCwUAA4IBAQAFEwPKKEzZ+QsnDdYSB3ngp/q71VOHNQjtYiV8U/6EU2OhF1EY
        DSYxGOGvsFmne/NeKVlrbShzXVhlmgMvZK8BWvui6lxvUpqmUhKvqvbSwCNOkCh+
        w0dlmYeOuelk/RspZmqxfl9Rh2NiUjRzChOZrR/hhQmEsJaKWz//kwNoJloHj/6w
        6z0sclqJskpQual/sNuw+09rWCIi9m8XvfA0hpz/mxpQu+sE0ktEsUJ5T/5vk79C
        eZi8Mr2yy3XAME6X7xluYHUDC1AlSD3khZHyT4ZTUYkl+rWemA2Evl1cEbvhPHqR
        TWJWJAiA369LQafSBHF2L7v8gQ4AkGnhmdQ3
        -----END CERTIFICATE-----
        """
    static let rsaPin = "sha256/7jRXfSm/9ijP/MxpK1cboJK5Oyx1xD2QsIHnK10mlFE="

    /// A self-signed P-384 certificate in X.509 version 1 (no version field); its key's pin.
    static let versionOne = """
        -----BEGIN CERTIFICATE-----
        MIIBajCB8gIUMMfTA2i2jdqUktZvJw1r4qEQc9swCgYIKoZIzj0EAwIwGjEYMBYG
        A1UEAwwPdjEuZml4dHVyZS50ZXN0MB4XDTI2MTEyNzE3MjEzM1oXDTM2MTEyNDE3
        MjEzM1owGjEYMBYGA1UEAwwPdjEuZml4dHVyZS50ZXN0MHYwEAYHKoZIzj0CAQYF
        K4EEACIDYgAEl3/gijBd4B2UGvE5n1CKoR5RWqlAEuxb8DelM/RERWYALg4VGYjd
        UfhXZ+dJogU5KQ6eMHqNPXlUXH62/LOELgcpJXfRt33pXSSiz6lauSQFx2uZe1nw
        +ce5R6DOhQ9yMAoGCCqGSM49BAMCA2cAMGQCMCiMhgUoG7yxC9WPb81mE2Qocxe/
        LSQXU80C23nub9nbezoUS21F8H/TzhPnxd1WLAIwUiH5AD3yoswX4hoR9vT4JZAW
        RMpTZlhPbHov3mb/PXzVDYmm5SC0TK93vRvpH0vX
        -----END CERTIFICATE-----
        """
    static let versionOnePin = "sha256/mEgfbmUxeCksjPUbFgkg6mann9zes3Zkvv/uPxJApm4="

    /// The DER bytes of a PEM certificate.
    static func der(_ pem: String) throws -> Data {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return try #require(Data(base64Encoded: body))
    }

    @Test("PEM and DER, RSA and EC, X.509 v3 and v1: the pin openssl prints")
    func pins() throws {
        #expect(try SPKIPin(certificate: Data(Self.rsa.utf8)) == SPKIPin(Self.rsaPin))
        #expect(try SPKIPin(certificate: Self.der(Self.rsa)) == SPKIPin(Self.rsaPin))
        #expect(try SPKIPin(certificate: Data(Self.versionOne.utf8)) == SPKIPin(Self.versionOnePin))
        #expect(try SPKIPin(certificate: Self.der(Self.versionOne)) == SPKIPin(Self.versionOnePin))
        // A bundle: the first certificate's key.
        let bundle = Data((Self.versionOne + "\n" + Self.rsa + "\n").utf8)
        #expect(try SPKIPin(certificate: bundle) == SPKIPin(Self.versionOnePin))
    }

    @Test("not a certificate, a PEM block that does not decode, every cut of a real one: invalidCertificate")
    func badInput() throws {
        #expect(throws: TrustPolicyError.self) { try SPKIPin(certificate: Data("hello".utf8)) }
        #expect(throws: TrustPolicyError.self) { try SPKIPin(certificate: Data()) }
        #expect(throws: TrustPolicyError.self) {
            try SPKIPin(certificate: Data("-----BEGIN CERTIFICATE-----\n!!!\n".utf8))
        }
        let der = try Self.der(Self.rsa)
        // Cut anywhere before the key ends, the key cannot be read whole.
        for length in 0..<400 {
            #expect(throws: TrustPolicyError.self) { try SPKIPin(certificate: der.prefix(length)) }
        }
        // A length byte turned into BER's indefinite length, and one claiming 2 GiB.
        var indefinite = der
        indefinite[1] = 0x80
        #expect(throws: TrustPolicyError.self) { try SPKIPin(certificate: indefinite) }
        var huge = der
        huge.replaceSubrange(1..<4, with: [0x84, 0x7F, 0xFF])
        #expect(throws: TrustPolicyError.self) { try SPKIPin(certificate: huge) }
    }
}
