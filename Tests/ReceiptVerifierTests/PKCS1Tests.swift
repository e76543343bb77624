import BER
import TestSupport
import XCTest
@testable import ReceiptVerifier

/// The strict PKCS#1 v1.5 check: known blocks first (no exponentiation), then the
/// same blocks turned into signatures with OpenSSL's raw private operation.
final class PKCS1Tests: XCTestCase {
    let digest1 = DigestAlgorithm.sha1.digest(Array("receipt".utf8))
    let digest256 = DigestAlgorithm.sha256.digest(Array("receipt".utf8))

    /// RFC 8017 §9.2 note 1 lists the DigestInfo prefixes.
    func testDigestInfoMatchesRFC8017() {
        XCTAssertEqual(PKCS1v15.digestInfo(digest1, algorithm: .sha1),
                       bytes(hex: "3021300906052b0e03021a05000414") + digest1)
        XCTAssertEqual(PKCS1v15.digestInfo(digest256, algorithm: .sha256),
                       bytes(hex: "3031300d060960864801650304020105000420") + digest256)
    }

    func testEncodedMessageLayout() throws {
        let em = try XCTUnwrap(PKCS1v15.encodedMessage(digest: digest256, algorithm: .sha256, length: 256))
        XCTAssertEqual(em.count, 256)
        XCTAssertEqual(Array(em[0..<2]), [0x00, 0x01])
        XCTAssertEqual(Array(em[2..<(256 - 52)]), [UInt8](repeating: 0xFF, count: 256 - 51 - 3))
        XCTAssertEqual(em[256 - 52], 0x00)
        XCTAssertEqual(Array(em.suffix(51)), PKCS1v15.digestInfo(digest256, algorithm: .sha256))
        // 8 padding bytes at least: 51 + 3 + 8 = 62.
        XCTAssertNotNil(PKCS1v15.encodedMessage(digest: digest256, algorithm: .sha256, length: 62))
        XCTAssertNil(PKCS1v15.encodedMessage(digest: digest256, algorithm: .sha256, length: 61))
    }

    /// Blocks a lenient verifier might accept; the strict one refuses every one but the first.
    func blockTable(length: Int) -> [(name: String, block: [UInt8], valid: Bool)] {
        let good = PKCS1v15.encodedMessage(digest: digest256, algorithm: .sha256, length: length)!
        let info = PKCS1v15.digestInfo(digest256, algorithm: .sha256)
        func mutated(_ change: (inout [UInt8]) -> Void) -> [UInt8] { var block = good; change(&block); return block }
        // DigestInfo without the NULL parameters (30 2f 30 0b 06 09 … 04 20 …).
        let noNull = bytes(hex: "302f300b06096086480165030402010420") + digest256
        // Garbage hidden after the DigestInfo, padding shortened to make room (BERserk's shape).
        let garbage = [UInt8](repeating: 0x41, count: 16)
        let hidden = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - 3 - info.count - garbage.count) + [0x00] + info + garbage
        let sha1Info = PKCS1v15.digestInfo(digest1, algorithm: .sha1)
        let wrongHash = [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - 3 - sha1Info.count) + [0x00] + sha1Info
        return [
            ("correct", good, true),
            ("block type 02", mutated { $0[1] = 0x02 }, false),
            ("padding byte FE", mutated { $0[5] = 0xFE }, false),
            ("no zero separator", mutated { $0[length - info.count - 1] = 0xFF }, false),
            ("digest bit flipped", mutated { $0[length - 1] ^= 0x01 }, false),
            ("DigestInfo without NULL", [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - 3 - noNull.count) + [0x00] + noNull, false),
            ("garbage after DigestInfo", hidden, false),
            ("SHA-1 DigestInfo for a SHA-256 check", wrongHash, false),
        ]
    }

    func testKnownBlocks() {
        for (name, block, valid) in blockTable(length: 128) {
            XCTAssertEqual(PKCS1v15.check(recovered: block, digest: digest256, algorithm: .sha256).isValid, valid, name)
        }
        XCTAssertFalse(PKCS1v15.check(recovered: [0, 1, 0xFF, 0], digest: digest256, algorithm: .sha256).isValid, "too short")
        XCTAssertFalse(PKCS1v15.check(recovered: blockTable(length: 128)[0].block, digest: digest1, algorithm: .sha256).isValid,
                       "digest of the wrong length")
    }

    /// The same blocks as signatures: s = block^d mod n, so s^e mod n (BigNum) = block.
    func testKnownBlocksThroughTheRSAOperation() {
        for key in [TestKey.leaf, TestKey(bits: 2048)] {
            let publicKey = key.publicKey
            for (name, block, valid) in blockTable(length: publicKey.modulusByteCount) {
                let signature = key.rawSign(block)
                XCTAssertEqual(publicKey.checkSignature(signature, digest: digest256, algorithm: .sha256).isValid, valid,
                               "\(publicKey.modulusBits) bits: \(name)")
            }
        }
    }

    func testOpenSSLSignaturesVerify() {
        let message = Array("a payload of some length".utf8)
        let publicKey = TestKey.leaf.publicKey
        for digest in DigestAlgorithm.allCases {
            let signature = TestKey.leaf.sign(message, digest: digest)
            XCTAssertEqual(publicKey.checkSignature(signature, message: message, algorithm: digest), .valid, digest.rawValue)
            XCTAssertEqual(publicKey.checkSignature(signature, message: message + [0], algorithm: digest).failure, .signatureMismatch)
            let other = digest == .sha1 ? DigestAlgorithm.sha256 : .sha1
            XCTAssertEqual(publicKey.checkSignature(signature, message: message, algorithm: other).failure, .signatureMismatch)
            // Another key of the same size: the signature may even lie beyond its modulus.
            let otherKey = TestKey.other.publicKey.checkSignature(signature, message: message, algorithm: digest).failure
            XCTAssertTrue(otherKey == .signatureMismatch || otherKey == .signatureOutOfRange, "\(String(describing: otherKey))")
        }
    }

    func testSignatureLengthAndRange() {
        let publicKey = TestKey.leaf.publicKey
        let message = Array("m".utf8)
        var signature = TestKey.leaf.sign(message)
        XCTAssertEqual(signature.count, publicKey.modulusByteCount)
        // Go and BoringSSL refuse a signature shorter than the modulus even if only a zero is missing.
        if signature[0] == 0 {
            XCTAssertEqual(publicKey.checkSignature(signature.dropFirst(), message: message, algorithm: .sha256).failure, .signatureLength)
        }
        XCTAssertEqual(publicKey.checkSignature([0] + signature, message: message, algorithm: .sha256).failure, .signatureLength,
                       "one byte long")
        XCTAssertEqual(publicKey.checkSignature(publicKey.modulus, message: message, algorithm: .sha256).failure,
                       .signatureOutOfRange)
        signature = [UInt8](repeating: 0, count: publicKey.modulusByteCount)
        XCTAssertEqual(publicKey.checkSignature(signature, message: message, algorithm: .sha256).failure, .signatureMismatch, "zero")
    }

    func testKeyChecks() {
        let key = TestKey.leaf
        XCTAssertNoThrow(try RSAPublicKey(modulus: [0, 0] + key.modulus, exponent: [0, 1, 0, 1]))
        XCTAssertThrowsError(try RSAPublicKey(modulus: Array(key.modulus.prefix(64)) + [1], exponent: [3])) {
            XCTAssertEqual($0 as? RSAPublicKey.KeyError, .unsupportedModulusSize(bits: 520))
        }
        XCTAssertThrowsError(try RSAPublicKey(modulus: [0x80] + [UInt8](repeating: 1, count: 512), exponent: [3])) {
            XCTAssertEqual($0 as? RSAPublicKey.KeyError, .unsupportedModulusSize(bits: 4104))
        }
        XCTAssertThrowsError(try RSAPublicKey(modulus: Array(key.modulus.dropLast()) + [2], exponent: [3])) {
            XCTAssertEqual($0 as? RSAPublicKey.KeyError, .evenModulus)
        }
        for exponent: [UInt8] in [[], [1], [2], [0x01, 0x00, 0x00], [1, 0, 0, 0, 1]] {
            XCTAssertThrowsError(try RSAPublicKey(modulus: key.modulus, exponent: exponent), "\(exponent)") {
                XCTAssertEqual($0 as? RSAPublicKey.KeyError, .invalidExponent)
            }
        }
    }
}
