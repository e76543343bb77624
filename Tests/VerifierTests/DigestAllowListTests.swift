import BER
import Foundation
import Receipt
import ReceiptForge
import ReceiptVerifier
import XCTest

/// `DigestAlgorithm` names five digests; receipts are signed with SHA-1 or SHA-256 and
/// the verifier refuses the others as `unsupported-algorithm`, even correctly signed
/// (OpenSSL accepts every one of them: `ForgeSignatureOracleTests`).
final class DigestAllowListTests: XCTestCase {
    func testOnlySHA1AndSHA256AreAccepted() throws {
        XCTAssertEqual(DigestAlgorithm.acceptedInReceipts, [.sha1, .sha256])
        let valid = try Fixtures.minted("valid")
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: try XCTUnwrap(valid.receipt)).payload)
        let ca = Fixtures.authority
        let validator = try Fixtures.validator(valid.description)
        for digest in DigestAlgorithm.allCases {
            let receipt = try ReceiptSigner(signer: ca.leaf, certificates: [ca.leaf.certificate, ca.intermediate.certificate],
                                            digest: digest).sign(payload)
            let verdict = validator.validate(receipt, now: Fixtures.now)
            if DigestAlgorithm.acceptedInReceipts.contains(digest) {
                XCTAssertEqual(verdict.reason, .valid, "\(digest.rawValue): \(verdict.detail)")
            } else {
                XCTAssertEqual(verdict.reason, .unsupportedAlgorithm, "\(digest.rawValue): \(verdict.detail)")
                XCTAssertTrue(verdict.detail.contains("digestAlgorithm \(digest.rawValue) is not sha1 or sha256"), verdict.detail)
            }
        }
    }
}
