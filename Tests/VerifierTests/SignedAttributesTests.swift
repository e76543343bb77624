import BER
import ReceiptForge
import Foundation
import FuzzTargets
import OpenSSLShim
import Receipt
import ReceiptVerifier
import TestSupport
import XCTest

/// Receipts carry no signed attributes, but a SignerInfo with them (OpenSSL's
/// `PKCS7_sign` default) must verify over the attributes with the SET tag, and the
/// `messageDigest` attribute must bind them to the payload.
final class SignedAttributesTests: XCTestCase {
    static func signWithAttributes(_ payload: [UInt8], digestBits: Int32 = 256) throws -> [UInt8] {
        let ca = Fixtures.authority
        let handles = [ca.leaf.certificate, ca.intermediate.certificate, ca.root.certificate].map { der in
            der.withUnsafeBufferPointer { rf_x509_load($0.baseAddress, $0.count) }
        }
        // The forge's key, loaded into OpenSSL from its PEM.
        let key = ca.leaf.key.pem.withCString { rf_key_load_pem($0, strlen($0)) }
        defer {
            handles.forEach { rf_x509_free($0) }
            rf_key_free(key)
        }
        XCTAssertFalse(handles.contains(nil))
        XCTAssertNotNil(key)
        let chain: [UnsafeMutableRawPointer?] = Array(handles.dropFirst())
        var out = [UInt8](repeating: 0, count: payload.count + 16_384)
        var length = 0
        let ok = chain.withUnsafeBufferPointer { chainBuffer in
            payload.withUnsafeBufferPointer { message in
                rf_pkcs7_sign(handles[0], key, chainBuffer.baseAddress, chainBuffer.count,
                              digestBits, 1, message.baseAddress, message.count, &out, out.count, &length)
            }
        }
        XCTAssertEqual(ok, 1)
        return Array(out.prefix(length))
    }

    func testSignedAttributesVerify() throws {
        let valid = try Fixtures.minted("valid")
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: try XCTUnwrap(valid.receipt)).payload)
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        for bits: Int32 in [160, 256] {
            let receipt = try Self.signWithAttributes(payload, digestBits: bits)
            XCTAssertNotNil(try PKCS7SignedData(bytes: receipt).signerInfos.first?.signedAttributes)
            let verdict = try Fixtures.validator(valid.description).validate(receipt, now: Fixtures.now)
            XCTAssertEqual(verdict.reason, .valid, verdict.detail)
            let outcome = differential.compare(receipt, atSecondsSince1970: Fixtures.creationDate)
            XCTAssertEqual(outcome.agreement, .agree, "\(outcome.signature)")
        }
    }

    func testMessageDigestBindsThePayload() throws {
        let valid = try Fixtures.minted("valid")
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: try XCTUnwrap(valid.receipt)).payload)
        let receipt = try Self.signWithAttributes(payload)
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)

        // A payload byte changed: the messageDigest no longer matches.
        var tamperedPayload = receipt
        let payloadStart = try XCTUnwrap(receipt.firstRange(of: payload)).lowerBound
        tamperedPayload[payloadStart + payload.count - 1] ^= 0x01
        let verdict = try Fixtures.validator(valid.description).validate(tamperedPayload, now: Fixtures.now)
        XCTAssertEqual(verdict.reason, .signatureInvalid, verdict.detail)
        XCTAssertEqual(verdict.signatureFailure, .messageDigestMismatch, verdict.detail)
        XCTAssertEqual(differential.compare(tamperedPayload, atSecondsSince1970: Fixtures.creationDate).agreement, .agree)

        // A signed attribute byte changed (the messageDigest value itself): its value no
        // longer matches the payload.
        let attributes = try XCTUnwrap(try PKCS7SignedData(bytes: receipt).signerInfos[0].signedAttributes)
        let attributesStart = try XCTUnwrap(receipt.firstRange(of: attributes)).lowerBound
        let digest = DigestAlgorithm.sha256.digest(payload)
        let digestRange = try XCTUnwrap(receipt[attributesStart..<(attributesStart + attributes.count)].firstRange(of: digest))
        var tamperedAttributes = receipt
        tamperedAttributes[digestRange.upperBound - 1] ^= 0x01
        let second = try Fixtures.validator(valid.description).validate(tamperedAttributes, now: Fixtures.now)
        XCTAssertEqual(second.reason, .signatureInvalid, second.detail)
        XCTAssertEqual(second.signatureFailure, .messageDigestMismatch, second.detail)

        // The payload changed and the messageDigest recomputed to match it: the digest
        // check passes, and the signature over the attributes (which was made over the
        // old digest) fails.
        var recomputed = tamperedPayload
        let changedPayload = tamperedPayload[payloadStart..<(payloadStart + payload.count)]
        recomputed.replaceSubrange(digestRange, with: DigestAlgorithm.sha256.digest(changedPayload))
        let third = try Fixtures.validator(valid.description).validate(recomputed, now: Fixtures.now)
        XCTAssertEqual(third.reason, .signatureInvalid, third.detail)
        XCTAssertEqual(third.signatureFailure, .signatureMismatch, third.detail)
        XCTAssertEqual(differential.compare(recomputed, atSecondsSince1970: Fixtures.creationDate).agreement, .agree)
        XCTAssertEqual(differential.compare(tamperedAttributes, atSecondsSince1970: Fixtures.creationDate).agreement, .agree)
    }
}
