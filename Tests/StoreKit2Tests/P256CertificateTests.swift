import BER
import Foundation
import ReceiptForge
import ReceiptVerifier
import XCTest
import ForgeCA

/// The X.509 code's P-256 keys and ecdsa-with-SHA256 signatures: the committed JWS CA
/// parses and chains; receipts' RSA-only parsing still refuses EC.
final class P256CertificateTests: XCTestCase {
    let authority = JWSAuthority.committed

    func testTheCommittedChainVerifies() throws {
        let root = try Certificate(authority.root.certificate, rules: .der, keyAlgorithms: .rsaAndP256)
        let intermediate = try Certificate(authority.intermediate.certificate, rules: .der, keyAlgorithms: .rsaAndP256)
        let leaf = try Certificate(authority.leaf.certificate, rules: .der, keyAlgorithms: .rsaAndP256)
        XCTAssertEqual(leaf.signatureAlgorithm, .ecdsaWithSHA256)
        XCTAssertEqual(leaf.publicKey.p256?.x963Representation, Array(authority.leaf.key.key.publicKey.x963Representation))
        XCTAssertNil(leaf.publicKey.rsa)
        XCTAssertTrue(leaf.extensions.hasAppleReceiptSigningMarker)
        XCTAssertTrue(intermediate.extensions.hasAppleWWDRIntermediateMarker)
        XCTAssertEqual(intermediate.extensions.basicConstraints?.pathLengthConstraint, 0)
        XCTAssertEqual(leaf.extensions.basicConstraints?.isCertificateAuthority, false)
        for certificate in [root, intermediate, leaf] {
            XCTAssertTrue(certificate.extensions.contains("2.5.29.14"), "subject key identifier")
            XCTAssertTrue(certificate.extensions.contains("2.5.29.35"), "authority key identifier")
        }
        let verdict = ChainVerifier(anchors: [root]).verify(leaf, intermediates: [intermediate],
                                                            atSecondsSince1970: ForgeSettings.defaultNow)
        XCTAssertTrue(verdict.isValid, verdict.detail)
        // A signature by the wrong key, and an RSA issuer for an EC signature, are refused.
        let unrelated = try Certificate(authority.unrelatedRoot.certificate, rules: .der, keyAlgorithms: .rsaAndP256)
        XCTAssertFalse(unrelated.publicKey.checkSignature(leaf.signature, message: leaf.tbsBytes,
                                                          signatureAlgorithm: .ecdsaWithSHA256).isValid)
        XCTAssertTrue(intermediate.publicKey.checkSignature(leaf.signature, message: leaf.tbsBytes,
                                                            signatureAlgorithm: .ecdsaWithSHA256).isValid)
        XCTAssertFalse(intermediate.publicKey.checkSignature(leaf.signature, message: leaf.tbsBytes,
                                                             signatureAlgorithm: .sha256WithRSAEncryption).isValid)
        let rsaRoot = try Certificate(ReceiptAuthority.committed.root.certificate, rules: .der)
        XCTAssertFalse(rsaRoot.publicKey.checkSignature(leaf.signature, message: leaf.tbsBytes,
                                                        signatureAlgorithm: .ecdsaWithSHA256).isValid)
        XCTAssertFalse(intermediate.publicKey.checkSignature(leaf.signature, message: leaf.tbsBytes, algorithm: .sha256).isValid,
                       "an EC key never verifies a PKCS#1 (CMS) signature")
    }

    func testReceiptParsingStaysRSAOnly() {
        XCTAssertThrowsError(try Certificate(authority.leaf.certificate, rules: .der)) {
            XCTAssertEqual(($0 as? CertificateError)?.code, .unsupportedAlgorithm)
        }
    }

    func testBadECKeysAreRefusedWithTheirPath() throws {
        let leaf = authority.leaf.certificate
        // The uncompressed point's 04 prefix, as 02 (a compressed-point marker on a 65-byte key).
        let point = Array(authority.leaf.key.key.publicKey.x963Representation)
        let index = try XCTUnwrap(firstIndex(of: point, in: leaf))
        var compressed = leaf
        compressed[index] = 0x02
        XCTAssertThrowsError(try Certificate(compressed, rules: .der, keyAlgorithms: .rsaAndP256)) {
            XCTAssertEqual(($0 as? CertificateError)?.code, .invalidPublicKey)
            XCTAssertTrue(($0 as? CertificateError)?.path.last == "subjectPublicKey", "\($0)")
        }
        var offCurve = leaf
        offCurve[index + 64] ^= 0x01
        XCTAssertThrowsError(try Certificate(offCurve, rules: .der, keyAlgorithms: .rsaAndP256)) {
            XCTAssertEqual(($0 as? CertificateError)?.code, .invalidPublicKey)
        }
        // prime256v1 (…3.1.7) changed to secp384r1's arc: another curve.
        let curve: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let curveIndex = try XCTUnwrap(firstIndex(of: curve, in: leaf))
        var otherCurve = leaf
        otherCurve[curveIndex + 9] = 0x08
        XCTAssertThrowsError(try Certificate(otherCurve, rules: .der, keyAlgorithms: .rsaAndP256)) {
            XCTAssertEqual(($0 as? CertificateError)?.code, .unsupportedAlgorithm)
        }
        // Every strict prefix fails cleanly.
        for length in stride(from: 0, to: leaf.count, by: 5) {
            XCTAssertThrowsError(try Certificate(Array(leaf.prefix(length)), rules: .der, keyAlgorithms: .rsaAndP256))
        }
    }

    private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
