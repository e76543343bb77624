import BER
import Foundation
import Receipt
import ReceiptForge
import XCTest
import ForgeCA
import ForgeSupport

/// The forge's RSA private key: PKCS#8 and PKCS#1 read with the BER module, bad keys
/// refused with a code, and the CRT signature checked before it is returned.
final class RSAPrivateKeyTests: XCTestCase {
    /// The committed leaf key: PKCS#8 PEM and DER.
    static let leafPEM = ReceiptAuthority.committed.leaf.key.pem
    static var leafDER: [UInt8] { try! PEM.decode(leafPEM, label: "PRIVATE KEY") }

    /// The nine INTEGERs of a PKCS#8 key's RSAPrivateKey (version, n, e, d, p, q, dP,
    /// dQ, qInv) as unsigned magnitudes.
    static func integers(ofPEM pem: String = leafPEM) throws -> [[UInt8]] {
        var reader = BERReader(try PEM.decode(pem, label: "PRIVATE KEY"), rules: .der)
        var integers: [[UInt8]] = []
        try reader.readSequence { (info: inout BERReader) throws(BERError) in
            _ = try info.readInt64()
            _ = try info.readElement(.sequence)
            var inner = BERReader(Array(try info.readOctetString()), rules: .der)
            try inner.readSequence { (key: inout BERReader) throws(BERError) in
                while !key.isAtEnd { integers.append(Array(try key.readUnsignedIntegerMagnitude())) }
            }
        }
        return integers
    }

    /// `RSAPrivateKey` from nine INTEGER magnitudes (the first one the version).
    static func pkcs1(_ integers: [[UInt8]]) -> [UInt8] {
        var writer = BERWriter()
        writer.appendSequence { key in
            for integer in integers { key.appendUnsignedInteger(magnitude: integer) }
        }
        return writer.bytes
    }

    /// `PrivateKeyInfo` around an `RSAPrivateKey`.
    static func pkcs8(_ pkcs1: [UInt8], version: Int64 = 0, algorithm: AlgorithmIdentifier = AlgorithmIdentifier(oid: .rsaEncryption))
        -> [UInt8] {
        var writer = BERWriter()
        writer.appendSequence { info in
            info.appendInteger(version)
            info.appendAlgorithmIdentifier(algorithm)
            info.appendOctetString(pkcs1)
        }
        return writer.bytes
    }

    static func key(_ der: [UInt8], label: String = "PRIVATE KEY") throws -> RSAPrivateKey {
        try RSAPrivateKey(pem: PEM.encode(der, label: label))
    }

    func code(_ body: () throws -> Any) -> KeyError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? KeyError)?.code
        }
    }

    /// Rebuilding the committed key from its integers gives its bytes; the PKCS#1 form
    /// of the same key signs identically; the public key is the one in its certificate.
    func testCommittedKeyInBothFormats() throws {
        let integers = try Self.integers()
        XCTAssertEqual(integers.count, 9)
        XCTAssertEqual(Self.pkcs8(Self.pkcs1(integers)), Self.leafDER)
        let pkcs8 = try RSAPrivateKey(pem: Self.leafPEM)
        let pkcs1 = try Self.key(Self.pkcs1(integers), label: "RSA PRIVATE KEY")
        XCTAssertEqual(pkcs1.publicKeyInfo, pkcs8.publicKeyInfo)
        let message = Array("a receipt payload".utf8)
        for digest in DigestAlgorithm.allCases {
            XCTAssertEqual(try pkcs1.sign(message, digest: digest), try pkcs8.sign(message, digest: digest), digest.rawValue)
        }
        for (name, identity) in ReceiptAuthority.committed.identities {
            XCTAssertEqual(identity.key.publicKeyInfo.count, 294, name)  // RSA-2048 SubjectPublicKeyInfo
            XCTAssertNotNil(identity.certificate.firstRange(of: identity.key.publicKeyInfo), "\(name): SPKI in its certificate")
        }
    }

    func testMalformedAndUnsupportedKeysAreRefused() throws {
        let integers = try Self.integers()
        var even = integers
        even[1][even[1].count - 1] &= 0xFE
        var tiny = integers
        tiny[1] = [UInt8](repeating: 0xC3, count: 32)  // a 256-bit modulus
        var huge = integers
        huge[1] = [UInt8](repeating: 0xC3, count: 513)
        var negative = Self.pkcs1(integers)
        negative[negative.firstRange(of: [0x02, 0x82, 0x01, 0x01, 0x00])!.upperBound - 1] = 0xFF  // n's sign octet
        let table: [(name: String, pem: String, code: KeyError.Code)] = [
            ("empty", "", .notPEM),
            ("not base64", "-----BEGIN PRIVATE KEY-----\n@@@@\n-----END PRIVATE KEY-----\n", .notPEM),
            ("base64 of nothing useful", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .malformed),
            ("trailing byte", PEM.encode(Self.leafDER + [0], label: "PRIVATE KEY"), .malformed),
            ("negative modulus", PEM.encode(negative, label: "RSA PRIVATE KEY"), .malformed),
            ("eight INTEGERs", PEM.encode(Self.pkcs1(Array(integers.dropLast())), label: "RSA PRIVATE KEY"), .malformed),
            ("ten INTEGERs", PEM.encode(Self.pkcs1(integers + [[1]]), label: "RSA PRIVATE KEY"), .malformed),
            ("multi-prime version 1", PEM.encode(Self.pkcs1([[1]] + integers.dropFirst()), label: "RSA PRIVATE KEY"), .unsupported),
            ("PKCS#8 version 2", PEM.encode(Self.pkcs8(Self.pkcs1(integers), version: 2), label: "PRIVATE KEY"), .unsupported),
            ("an EC key algorithm", PEM.encode(Self.pkcs8(Self.pkcs1(integers), algorithm: AlgorithmIdentifier(oid: "1.2.840.10045.2.1")),
                                        label: "PRIVATE KEY"), .unsupported),
            ("RSA without NULL parameters", PEM.encode(Self.pkcs8(Self.pkcs1(integers), algorithm: AlgorithmIdentifier(oid: .rsaEncryption, parameters: nil)),
                                                label: "PRIVATE KEY"), .unsupported),
            ("encrypted PKCS#8", PEM.encode(encryptedShape(), label: "ENCRYPTED PRIVATE KEY"), .unsupported),
            ("even modulus", PEM.encode(Self.pkcs1(even), label: "RSA PRIVATE KEY"), .unsupported),
            ("256-bit modulus", PEM.encode(Self.pkcs1(tiny), label: "RSA PRIVATE KEY"), .unsupported),
            ("4104-bit modulus", PEM.encode(Self.pkcs1(huge), label: "RSA PRIVATE KEY"), .unsupported),
            // The label says which structure the DER is, and one file holds one key.
            ("PKCS#1 labelled PKCS#8", PEM.encode(Self.pkcs1(integers), label: "PRIVATE KEY"), .malformed),
            ("PKCS#8 labelled PKCS#1", PEM.encode(Self.leafDER, label: "RSA PRIVATE KEY"), .malformed),
            ("a certificate", PEM.encode(ReceiptAuthority.committed.leaf.certificate, label: "CERTIFICATE"), .unsupported),
            ("two keys in one file", Self.leafPEM + ReceiptAuthority.committed.root.key.pem, .notPEM),
        ]
        for entry in table {
            XCTAssertEqual(code { try RSAPrivateKey(pem: entry.pem) }, entry.code, entry.name)
        }
        // Drip-feed: every strict prefix of the DER is refused, never a crash.
        for length in 0..<Self.leafDER.count {
            let failure = code { try Self.key(Array(Self.leafDER.prefix(length))) }
            XCTAssertTrue(failure == .malformed || failure == .notPEM, "prefix of \(length) bytes: \(String(describing: failure))")
        }
    }

    /// `EncryptedPrivateKeyInfo ::= SEQUENCE { encryptionAlgorithm, encryptedData }`.
    private func encryptedShape() -> [UInt8] {
        var writer = BERWriter()
        writer.appendSequence { info in
            info.appendAlgorithmIdentifier(AlgorithmIdentifier(oid: "1.2.840.113549.1.5.13", parameters: nil))
            info.appendOctetString([UInt8](repeating: 0x5A, count: 32))
        }
        return writer.bytes
    }

    /// Parts that do not make one key load (the parser cannot know) but never sign:
    /// the CRT result fails its check with e, so no wrong signature leaves the key.
    func testInconsistentKeysNeverSign() throws {
        let integers = try Self.integers()
        var swappedExponents = integers
        swappedExponents.swapAt(6, 7)
        var flippedCoefficient = integers
        flippedCoefficient[8][flippedCoefficient[8].count - 1] ^= 0x01
        var oversizedCoefficient = integers
        oversizedCoefficient[8] = integers[4] + [0x01]  // qInv ≥ p
        var otherModulus = integers
        otherModulus[1] = try Self.integers(ofPEM: ReceiptAuthority.committed.root.key.pem)[1]
        for (name, parts) in [("dP and dQ swapped", swappedExponents), ("qInv off by one bit", flippedCoefficient),
                              ("qInv not below p", oversizedCoefficient), ("another key's modulus", otherModulus)] {
            let key = try Self.key(Self.pkcs1(parts), label: "RSA PRIVATE KEY")
            XCTAssertEqual(code { try key.sign(Array("m".utf8), digest: .sha256) }, .inconsistent, name)
        }
    }

    /// A key too short for a digest's DigestInfo refuses that digest and signs the others
    /// (a 512-bit test key: 64 bytes hold SHA-256's 62-byte encoding, not SHA-384's 78).
    func testShortKeyRefusesLongDigests() throws {
        let key = try RSAPrivateKey(pem: Self.rsa512PEM)
        let message = Array("m".utf8)
        for digest in [DigestAlgorithm.md5, .sha1, .sha256] {
            XCTAssertEqual(try key.sign(message, digest: digest).count, 64, digest.rawValue)
        }
        for digest in [DigestAlgorithm.sha384, .sha512] {
            XCTAssertEqual(code { try key.sign(message, digest: digest) }, .unsupported, digest.rawValue)
        }
    }

    /// Two implementations, one answer: swift-crypto's signature (used for the SHA
    /// digests) equals the project's own CRT on BigNum, byte for byte, for every key
    /// of the committed CA and every digest swift-crypto signs with.
    func testSwiftCryptoAndBigNumSignaturesAreTheSameBytes() throws {
        let authority = ReceiptAuthority.committed
        for identity in [authority.root, authority.intermediate, authority.leaf, authority.storeKit] {
            for digest in [DigestAlgorithm.sha1, .sha256, .sha384, .sha512] {
                for message in [[], Array("receipt".utf8), [UInt8](repeating: 0xA5, count: 1_000)] {
                    XCTAssertEqual(try identity.key.sign(message, digest: digest),
                                   try identity.key.signWithBigNum(message, digest: digest), digest.rawValue)
                }
            }
        }
        // MD5 is the BigNum path's alone.
        XCTAssertEqual(try authority.leaf.key.sign([1], digest: .md5), try authority.leaf.key.signWithBigNum([1], digest: .md5))
    }

    /// `forge ca`'s keys: RSA-2048 from swift-crypto, kept as PKCS#8 PEM, e = 65537.
    func testGeneratedKeys() throws {
        let key = try RSAPrivateKey.generate()
        XCTAssertTrue(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), key.pem)
        XCTAssertEqual(key.publicKeyInfo.count, 294)
        XCTAssertEqual(Array(key.publicKeyInfo.suffix(5)), [0x02, 0x03, 0x01, 0x00, 0x01], "e = 65537")
        let reloaded = try RSAPrivateKey(pem: key.pem)
        XCTAssertEqual(reloaded.publicKeyInfo, key.publicKeyInfo)
        XCTAssertEqual(try reloaded.sign([1, 2, 3], digest: .sha256), try key.sign([1, 2, 3], digest: .sha256))
        XCTAssertNotEqual(try RSAPrivateKey.generate().publicKeyInfo, key.publicKeyInfo)
        XCTAssertEqual(code { try RSAPrivateKey.generate(bits: 1024) }, .generationFailed, "swift-crypto refuses RSA-1024")
    }

    /// A public 512-bit test key (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:512`).
    static let rsa512PEM = """
        -----BEGIN PRIVATE KEY-----
        MIIBVgIBADANBgkqhkiG9w0BAQEFAASCAUAwggE8AgEAAkEAsv/zYQIpOvVgKccw
        uDz0he+ZczG3GQsG0j39iAC68dRyAhqOlN5VsQ9mfKqpIMyrQUa+fgaL94Y5ZqPv
        /UEFbQIDAQABAkEAjXa+j8I3d4MI9ruXg2OZFGjhayq1O7N9NpcLUXrSQ9+A4odH
        ULxdM/tL3080dU3UraS8xDuIpoLeK7fcb98vOQIhAOYxnzZ0gxtLDdaqOVZDsziL
        R5KyF0wbaeCQj6Dko1uXAiEAxxEZ72Qza5YJUAdzyUmHregjUdScxZufDqJZbSOS
        F5sCIQDLsjNqE5YEq9i2EXGlZUkNiyotpIw7G7MINcPzIv9vRwIhAIN7qSy0ez4p
        eHcypOijt4lHVeTb0Ly4wEMzOmva3cjXAiAj0WI8RV5RTQAAD8tl4CQ+d0dOIYML
        ELZEnBEkVmG2nA==
        -----END PRIVATE KEY-----

        """
}
