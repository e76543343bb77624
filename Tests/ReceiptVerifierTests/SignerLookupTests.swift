import BER
import Receipt
import XCTest
@testable import ReceiptVerifier

/// `SignedDataVerifier.findSigner` (issuer + serial, never position) and the
/// certificate half of `SignatureCache` (keyed by the exact bytes).
final class SignerLookupTests: XCTestCase {
    static let leaf = CertificateSpec().encoded(signedBy: .intermediate)
    static let other: [UInt8] = {
        var spec = CertificateSpec()
        spec.serial = der { $0.appendInteger(0x5678) }
        return spec.encoded(signedBy: .intermediate)
    }()

    func certificates() throws -> [Certificate] {
        [try Certificate(Self.other), try Certificate(Self.leaf)]
    }

    func find(issuer: [UInt8], serial: [UInt8]) throws -> Result<Int, VerdictError> {
        SignedDataVerifier.findSigner(.issuerAndSerialNumber(issuer: issuer, serialNumber: serial), in: try certificates())
    }

    func testExactIssuerBytes() throws {
        XCTAssertEqual(try find(issuer: nameDER(cn: "Forge Test Root"), serial: [0x12, 0x34]).get(), 1)
        XCTAssertEqual(try find(issuer: nameDER(cn: "Forge Test Root"), serial: [0x56, 0x78]).get(), 0)
    }

    func testLeadingZeroSerialOctetsAreIgnored() throws {
        XCTAssertEqual(try find(issuer: nameDER(cn: "Forge Test Root"), serial: [0x00, 0x12, 0x34]).get(), 1)
    }

    func testCanonicallyEqualIssuer() throws {
        // Different bytes (UTF8String, other case and spacing), the same name after
        // RFC 5280 §7.1 folding: the slow path parses and matches.
        let folded = nameDER([(.countryName, "us"), (.organizationName, " forge  TEST"), (.commonName, "FORGE test root ")], utf8: true)
        XCTAssertNotEqual(folded, nameDER(cn: "Forge Test Root"))
        XCTAssertEqual(try find(issuer: folded, serial: [0x12, 0x34]).get(), 1)
    }

    func testMisses() throws {
        for (issuer, serial) in [(nameDER(cn: "Forge Test Root"), [UInt8]([0x12, 0x35])),
                                 (nameDER(cn: "Another Root"), [0x12, 0x34])] {
            guard case .failure(let failure) = try find(issuer: issuer, serial: serial) else {
                return XCTFail("found a signer for \(issuer) / \(serial)")
            }
            XCTAssertEqual(failure.verdict.reason, .untrustedChain)
            XCTAssertEqual(failure.verdict.chainFailure, .signerNotFound, failure.verdict.detail)
        }
    }

    func testUnparsableIssuerIsMalformed() throws {
        guard case .failure(let failure) = try find(issuer: [0x30, 0x05, 0x31], serial: [0x12, 0x34]) else {
            return XCTFail("a truncated issuer matched")
        }
        XCTAssertEqual(failure.verdict.reason, .malformed)
    }

    func testCertificateCacheComparesEveryByte() throws {
        // Two certificates with the same length and the same last 64 bytes (what the
        // key hashes), differing in the subject: two entries, each its own parse.
        var spec = CertificateSpec()
        spec.subject = nameDER(cn: "Forge Test Leag")
        let twin = spec.encoded()
        var original = CertificateSpec()
        original.subject = nameDER(cn: "Forge Test Leaf")
        let first = original.encoded()
        XCTAssertEqual(first.count, twin.count)
        XCTAssertEqual(Array(first.suffix(64)), Array(twin.suffix(64)))
        XCTAssertNotEqual(first, twin)

        let cache = SignatureCache()
        let a = try cache.receiptCertificate(first)
        let b = try cache.receiptCertificate(twin)
        let again = try cache.receiptCertificate(first)
        XCTAssertEqual(a.subject.commonName, "Forge Test Leaf")
        XCTAssertEqual(b.subject.commonName, "Forge Test Leag")
        XCTAssertTrue(again.isSameParse(as: a))
        XCTAssertFalse(b.isSameParse(as: a))
        XCTAssertEqual(cache.statistics.certificates, 2)
    }

    func testCopiesShareOneParse() throws {
        let certificate = try Certificate(Self.leaf)
        let copy = certificate
        XCTAssertTrue(copy.isSameParse(as: certificate))
        XCTAssertTrue(copy.isSameCertificate(as: try Certificate(Self.leaf)))
        XCTAssertFalse(copy.isSameCertificate(as: try Certificate(Self.other)))
        XCTAssertEqual(certificate.displayName, "CN=Forge Test Leaf")
    }
}
