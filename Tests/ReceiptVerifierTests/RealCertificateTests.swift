import BER
import TestSupport
import XCTest
@testable import ReceiptVerifier

/// Every certificate of every real receipt, and both anchors, parsed and compared
/// field by field with what OpenSSL reads from the same bytes.
final class RealCertificateTests: XCTestCase {
    /// Distinct certificates (by bytes) from all receipts and both anchors.
    func distinctCertificates() throws -> [[UInt8]] {
        var seen = Set<[UInt8]>()
        var result: [[UInt8]] = []
        let all = try RealChain.all().flatMap { $0.certificates.map(Array.init) }
            + [try RealChain.anchor("AppleIncRootCertificate.cer"), try RealChain.anchor("StoreKitTestCertificate.cer")]
        for der in all where seen.insert(der).inserted { result.append(der) }
        return result
    }

    func testEveryReceiptCertificateParses() throws {
        let chains = try RealChain.all()
        XCTAssertEqual(chains.count, 25)
        var parsed = 0
        for chain in chains {
            XCTAssertEqual(chain.certificates.count, chain.entry.certificateCount, chain.name)
            for (index, der) in chain.certificates.enumerated() {
                do {
                    let certificate = try Certificate(der)
                    XCTAssertEqual(certificate.version, 3, "\(chain.name)[\(index)]")
                    // Slices keep the receipt's indices: the TBS lies inside the certificate.
                    XCTAssertEqual(certificate.tbsBytes.startIndex, der.startIndex + 4, "\(chain.name)[\(index)]")
                    parsed += 1
                } catch {
                    XCTFail("\(chain.name) certificate \(index): \(error)")
                }
            }
        }
        XCTAssertEqual(parsed, 21 * 3 + 4)
    }

    func testFieldsAgreeWithOpenSSL() throws {
        let certificates = try distinctCertificates()
        XCTAssertEqual(certificates.count, 11)
        for der in certificates {
            let certificate = try Certificate(der)
            let label = certificate.displayName
            let oracle = try XCTUnwrap(OpenSSLOracle.info(der), label)
            XCTAssertEqual(certificate.version, Int(oracle.version), label)
            XCTAssertEqual(Array(certificate.subject.encoded), OpenSSLOracle.name(der, subject: true), label)
            XCTAssertEqual(Array(certificate.issuer.encoded), OpenSSLOracle.name(der, subject: false), label)
            XCTAssertEqual(Array(certificate.serialNumber), OpenSSLOracle.serial(der), label)
            XCTAssertEqual(certificate.validity.notBefore.secondsSince1970, oracle.not_before, label)
            XCTAssertEqual(certificate.validity.notAfter.secondsSince1970, oracle.not_after, label)
            XCTAssertEqual(certificate.publicKey.rsa?.modulusBits, Int(oracle.key_bits), label)
            let key = try XCTUnwrap(OpenSSLOracle.rsaKey(der), label)
            XCTAssertEqual(certificate.publicKey.rsa?.modulus, key.modulus, label)
            XCTAssertEqual(certificate.publicKey.rsa?.exponent, key.exponent, label)
            XCTAssertEqual(certificate.extensions.basicConstraints?.isCertificateAuthority ?? false, oracle.is_ca == 1, label)
            XCTAssertEqual(certificate.extensions.basicConstraints?.pathLengthConstraint ?? -1, oracle.path_length, label)
            // OpenSSL's KU_* constants are the BIT STRING's first two octets read big-endian.
            let expectedUsage = certificate.extensions.keyUsage.map { usage in
                UInt32(UInt8(truncatingIfNeeded: usage.rawValue).bitReversed) | UInt32(UInt8(usage.rawValue >> 8).bitReversed) << 8
            } ?? UInt32.max
            XCTAssertEqual(expectedUsage, oracle.key_usage, label)
            for item in certificate.extensions.all {
                XCTAssertEqual(OpenSSLOracle.extensionCriticality(der, item.oid), item.isCritical, "\(label) \(item.oid)")
            }
            for marker in [OID.appleWWDRIntermediateMarker, .appleReceiptSigningMarker] {
                XCTAssertEqual(certificate.extensions.contains(marker), OpenSSLOracle.extensionCriticality(der, marker) != nil, label)
            }
            XCTAssertEqual(certificate.extensions.unhandledCriticalExtensions, [], label)
        }
    }

    /// Expectations copied by hand from `openssl x509 -inform DER -text`.
    func testFieldsAgreeWithHandCheckedOpenSSLText() throws {
        struct Expected {
            var serial: String
            var subject: String
            var issuerCN: String
            var notBefore: String
            var notAfter: String
            var algorithm: SignatureAlgorithm
            var basicConstraints: BasicConstraints
            var keyUsage: KeyUsage
            var markers: Set<OID>
            var extendedKeyUsage: [OID]?
        }
        let table: [Expected] = [
            Expected(serial: "02", subject: "C=US, O=Apple Inc., OU=Apple Certification Authority, CN=Apple Root CA",
                     issuerCN: "Apple Root CA", notBefore: "2006-04-25T21:40:36Z", notAfter: "2035-02-09T21:40:36Z",
                     algorithm: .sha1WithRSAEncryption, basicConstraints: BasicConstraints(isCertificateAuthority: true),
                     keyUsage: [.keyCertSign, .cRLSign], markers: []),
            Expected(serial: "3b7e800aeed302a1e6ecdb97d9caac289cf16994",
                     subject: "CN=Apple Worldwide Developer Relations Certification Authority, OU=G5, O=Apple Inc., C=US",
                     issuerCN: "Apple Root CA", notBefore: "2020-12-16T19:38:56Z", notAfter: "2030-12-10T00:00:00Z",
                     algorithm: .sha256WithRSAEncryption,
                     basicConstraints: BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 0),
                     keyUsage: [.keyCertSign, .cRLSign], markers: [.appleWWDRIntermediateMarker]),
            Expected(serial: "7d3920094ebef3f8efca6c10ea8e4303",
                     subject: "CN=Mac App Store and iTunes Store Receipt Signing, OU=Apple Worldwide Developer Relations, O=Apple Inc., C=US",
                     issuerCN: "Apple Worldwide Developer Relations Certification Authority",
                     notBefore: "2024-07-24T14:50:03Z", notAfter: "2026-08-23T14:50:02Z",
                     algorithm: .sha256WithRSAEncryption, basicConstraints: BasicConstraints(isCertificateAuthority: false),
                     keyUsage: [.digitalSignature], markers: [.appleReceiptSigningMarker]),
            Expected(serial: "1859432172749cfc",
                     subject: "CN=Mac App Store Receipt Signing, OU=Apple Worldwide Developer Relations, O=Apple Inc., C=US",
                     issuerCN: "Apple Worldwide Developer Relations Certification Authority",
                     notBefore: "2010-11-11T21:58:01Z", notAfter: "2015-11-11T21:58:01Z",
                     algorithm: .sha1WithRSAEncryption, basicConstraints: BasicConstraints(isCertificateAuthority: false),
                     keyUsage: [.digitalSignature], markers: [.appleReceiptSigningMarker]),
            Expected(serial: "01", subject: "CN=StoreKit, O=StoreKit, OU=StoreKit, C=US, emailAddress=StoreKit",
                     issuerCN: "StoreKit", notBefore: "2020-04-01T17:52:35Z", notAfter: "2040-03-27T17:52:35Z",
                     algorithm: .sha256WithRSAEncryption, basicConstraints: BasicConstraints(isCertificateAuthority: true),
                     keyUsage: [.digitalSignature, .keyCertSign], markers: [],
                     extendedKeyUsage: ["1.3.6.1.5.5.7.3.3"]),
        ]
        let certificates = try distinctCertificates().map { try Certificate($0) }
        for expected in table {
            let found = certificates.filter { hexString($0.serialNumber) == expected.serial }
            XCTAssertEqual(found.count, 1, expected.serial)
            guard let certificate = found.first else { continue }
            XCTAssertEqual(certificate.subject.description, expected.subject)
            XCTAssertEqual(certificate.issuer.commonName, expected.issuerCN)
            XCTAssertEqual(certificate.validity.notBefore.description, expected.notBefore)
            XCTAssertEqual(certificate.validity.notAfter.description, expected.notAfter)
            XCTAssertEqual(certificate.signatureAlgorithm, expected.algorithm)
            XCTAssertEqual(certificate.publicKey.rsa?.modulusBits, 2048)
            XCTAssertEqual(certificate.publicKey.rsa?.exponent, [0x01, 0x00, 0x01])
            XCTAssertEqual(certificate.extensions.basicConstraints, expected.basicConstraints)
            XCTAssertEqual(certificate.extensions.keyUsage, expected.keyUsage)
            XCTAssertEqual(certificate.extensions.extendedKeyUsage, expected.extendedKeyUsage)
            let markers = Set([OID.appleWWDRIntermediateMarker, .appleReceiptSigningMarker].filter(certificate.extensions.contains))
            XCTAssertEqual(markers, expected.markers, expected.serial)
        }
    }

    /// Each certificate's signature by the next one in the receipt (and the root by
    /// itself), checked with BigNum and with OpenSSL; a flipped TBS bit fails both.
    func testRealSignaturesVerifyAsOpenSSLSays() throws {
        var checked = 0
        for chain in try RealChain.all() {
            let ders = chain.certificates.map(Array.init) + [chain.anchor]
            for index in 0..<ders.count - 1 {
                let (subjectDER, issuerDER) = (ders[index], ders[index + 1])
                let subject = try Certificate(subjectDER)
                let issuer = try Certificate(issuerDER)
                let digest = try XCTUnwrap(subject.signatureAlgorithm.digestAlgorithm)
                let ours = issuer.publicKey.checkSignature(subject.signature, message: subject.tbsBytes, algorithm: digest)
                XCTAssertEqual(ours, .valid, "\(chain.name)[\(index)]")
                XCTAssertTrue(OpenSSLOracle.verify(subjectDER, signedBy: issuerDER), "\(chain.name)[\(index)]")

                var tampered = subjectDER
                tampered[subject.serialNumber.endIndex - 1] ^= 0x01  // still well formed, no longer what was signed
                let forged = try Certificate(tampered)
                XCTAssertFalse(issuer.publicKey.checkSignature(forged.signature, message: forged.tbsBytes, algorithm: digest).isValid)
                XCTAssertFalse(OpenSSLOracle.verify(tampered, signedBy: issuerDER))
                checked += 1
            }
        }
        // 21 App Store receipts: leaf←intermediate, intermediate←root, root←anchor; 4 Xcode: self←anchor.
        XCTAssertEqual(checked, 21 * 3 + 4)
    }
}
