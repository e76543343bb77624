import BER
import Foundation
import OpenSSLShim
import Receipt
import ReceiptForge
import XCTest
import ForgeCA

/// OpenSSL checks every signature the forge makes (the forge itself signs with BigNum):
/// PKCS#1 v1.5 is deterministic, so the forge's signatures must be OpenSSL's byte for
/// byte; every certificate the forge issues must pass X509_verify under its issuer.
/// (Receipt signatures: `ForgeCatalogueTests.testOpenSSLAgreesWithEveryCase` runs
/// PKCS7_verify on every case.)
final class ForgeSignatureOracleTests: XCTestCase {
    /// The forge's key loaded into OpenSSL from its PEM.
    final class OpenSSLKey {
        let handle: UnsafeMutableRawPointer

        init(_ key: RSAPrivateKey) throws {
            handle = try XCTUnwrap(key.pem.withCString { rf_key_load_pem($0, strlen($0)) }, "OpenSSL cannot read the key")
        }

        deinit { rf_key_free(handle) }

        var publicKeyInfo: [UInt8]? {
            var out = [UInt8](repeating: 0, count: 4096)
            var length = 0
            return rf_key_public_der(handle, &out, out.count, &length) == 1 ? Array(out[..<length]) : nil
        }

        func sign(_ message: [UInt8], digest: DigestAlgorithm) -> [UInt8]? {
            let bits: Int32 = switch digest {
            case .md5: 128
            case .sha1: 160
            case .sha256: 256
            case .sha384: 384
            case .sha512: 512
            }
            var out = [UInt8](repeating: 0, count: 1024)
            var length = 0
            let ok = message.withUnsafeBufferPointer { rf_key_sign(handle, bits, $0.baseAddress, $0.count, &out, out.count, &length) }
            return ok == 1 ? Array(out[..<length]) : nil
        }
    }

    /// X509_verify of `certificate` with `issuer`'s public key.
    func openSSLVerifies(_ certificate: [UInt8], issuedBy issuer: [UInt8]) -> Bool {
        rf_x509_verify(certificate, certificate.count, issuer, issuer.count) == 1
    }

    func testSignaturesAreOpenSSLsByteForByte() throws {
        let messages: [[UInt8]] = [[], Array("abc".utf8), (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }]
        var compared = 0
        for (name, identity) in ReceiptAuthority.committed.identities {
            let openSSL = try OpenSSLKey(identity.key)
            XCTAssertEqual(identity.key.publicKeyInfo, openSSL.publicKeyInfo, name)
            for digest in DigestAlgorithm.allCases {
                for message in messages {
                    let ours = try identity.key.sign(message, digest: digest)
                    XCTAssertEqual(ours, openSSL.sign(message, digest: digest), "\(name) \(digest.rawValue) \(message.count) bytes")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 5 * 5 * 3)
        // A 512-bit key, in the digests it can hold.
        let short = try RSAPrivateKey(pem: RSAPrivateKeyTests.rsa512PEM)
        let openSSL = try OpenSSLKey(short)
        for digest in [DigestAlgorithm.md5, .sha1, .sha256] {
            XCTAssertEqual(try short.sign(messages[1], digest: digest), openSSL.sign(messages[1], digest: digest), digest.rawValue)
        }
    }

    /// The committed CA and every certificate in every case's receipt: each is issued
    /// by a certificate the forge holds or ships, under whose key OpenSSL verifies it.
    func testEveryCertificateTheForgeIssuedVerifiesWithOpenSSL() throws {
        var certificates: [[UInt8]] = ReceiptAuthority.committed.identities.map(\.1.certificate)
        for minted in Minted.cases {
            guard let file = minted.receipt, let container = try? PKCS7SignedData(bytes: file) else { continue }
            for certificate in container.certificates where !certificates.contains(certificate) {
                certificates.append(certificate)
            }
        }
        XCTAssertGreaterThan(certificates.count, 5, "cases carry certificates of their own (re-issued leaves, intermediates)")
        for certificate in certificates {
            let summary = try CertificateSummary(der: certificate)
            let issuers = certificates.filter { (try? CertificateSummary(der: $0).subject) == summary.issuer }
            XCTAssertTrue(issuers.contains { openSSLVerifies(certificate, issuedBy: $0) },
                          "serial \(summary.serialNumber): no issuer's key verifies it")
        }
    }

    /// `forge ca`: a fresh CA (keys from swift-crypto, certificates signed with BigNum)
    /// is a chain OpenSSL accepts, and a receipt its leaf signs verifies under its root.
    func testAFreshCertificateAuthorityVerifiesWithOpenSSL() throws {
        let ca = try ReceiptAuthority.generate()
        let issuedBy = [(ca.root, ca.root), (ca.intermediate, ca.root), (ca.leaf, ca.intermediate),
                        (ca.unrelatedRoot, ca.unrelatedRoot), (ca.storeKit, ca.storeKit)]
        for (certificate, issuer) in issuedBy {
            XCTAssertTrue(openSSLVerifies(certificate.certificate, issuedBy: issuer.certificate), "\(certificate.summary.subject)")
            XCTAssertEqual(try OpenSSLKey(certificate.key).publicKeyInfo, certificate.key.publicKeyInfo)
        }
        XCTAssertFalse(openSSLVerifies(ca.leaf.certificate, issuedBy: ca.root.certificate))
        let receipt = try ReceiptSigner(signer: ca.leaf, certificates: [ca.leaf.certificate, ca.intermediate.certificate])
            .sign(Array("a payload".utf8))
        XCTAssertEqual(openSSLOutcome(receipt, anchor: ca.root.certificate, at: Minted.forge.settings.creationDate), .verified)
        XCTAssertEqual(openSSLOutcome(receipt, anchor: ReceiptAuthority.committed.root.certificate,
                                      at: Minted.forge.settings.creationDate), .chainInvalid)
    }

    /// Receipts signed with every digest, MD5 included, are correctly signed for OpenSSL
    /// (the verifier still refuses all but SHA-1 and SHA-256: see `DigestAllowListTests`).
    func testReceiptsSignedWithEveryDigestVerifyWithOpenSSL() throws {
        let ca = ReceiptAuthority.committed
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: try XCTUnwrap(Minted.named("valid").receipt)).payload)
        for digest in DigestAlgorithm.allCases {
            let receipt = try ReceiptSigner(signer: ca.leaf, certificates: [ca.leaf.certificate, ca.intermediate.certificate],
                                            digest: digest).sign(payload)
            XCTAssertEqual(openSSLOutcome(receipt, anchor: ca.root.certificate, at: Minted.forge.settings.creationDate),
                           .verified, digest.rawValue)
        }
    }
}
