import BER
import FuzzTargets
import Receipt
import ReceiptVerifier
import TestSupport
import XCTest

/// The `receipt` target's typed checks (`ReceiptTypedChecks`) and the `verifier`
/// target's policy checks (`VerifierPolicyChecks`): they accept sound receipts, and
/// each failure message says what failed.
final class ReceiptTypedChecksTests: XCTestCase {
    /// A payload with every typed field, dates with a fraction and an offset, and two
    /// in-app purchases, built through the setters.
    static let receipt: AppReceipt = {
        var receipt = AppReceipt()
        receipt.environment = "Production"
        receipt.appItemID = 1_234_567
        receipt.bundleIdentifier = "com.example.app"
        receipt.appVersion = "1.2"
        receipt.opaqueValue = Array(1...16)
        receipt.creationDate = ReceiptDate("2020-10-16T14:29:30+0300")
        receipt.originalPurchaseDate = ReceiptDate("2020-08-21T07:54:47.123Z")
        receipt.expirationDate = ReceiptDate("2031-01-01T00:00:00Z")
        receipt.ageRating = "4+"
        receipt.originalApplicationVersion = "1.0"
        var first = InAppPurchase()
        first.quantity = 1
        first.productIdentifier = "coins"
        first.transactionIdentifier = "1000"
        first.purchaseDate = ReceiptDate("2020-08-21T07:54:47Z")
        first.isTrialPeriod = false
        first.subscriptionExpirationDate = nil
        var second = first
        second.productIdentifier = "monthly"
        second.productType = InAppPurchase.ProductType.autoRenewableSubscription.rawValue
        second.subscriptionExpirationDate = ReceiptDate("2020-09-21T07:54:47Z")
        second.webOrderLineItemID = 99
        second.isInIntroOfferPeriod = true
        second.promotionalOfferIdentifier = "promo"
        second.cancellationDate = ReceiptDate("2020-09-01T00:00:00.5-0130")
        receipt.inAppPurchases = [first, second]
        return receipt
    }()

    func testASoundReceiptPassesEveryCheck() throws {
        var receipt = Self.receipt
        let device = ReceiptTypedChecks.device(for: receipt)
        XCTAssertEqual(device.bytes, Array(1...16))
        receipt.sha1Hash = DeviceHash.expected(for: receipt, device: device)
        let payload = receipt.encoded()
        let decoded = try AppReceipt(decoding: payload)
        XCTAssertNil(ReceiptTypedChecks.check(decoded, payload: payload))
        XCTAssertNil(VerifierPolicyChecks.policyFinding(decoded))
        let dump = try ReceiptDump(bytes: payload)
        XCTAssertNil(ReceiptTypedChecks.check(dump))
    }

    /// An 8-byte opaque value (Xcode receipts) gives a 6-byte MAC-address device, whose
    /// text forms parse back.
    func testShortOpaqueValueGivesAMACAddressDevice() {
        var receipt = Self.receipt
        receipt.opaqueValue = Array(1...8)
        let device = ReceiptTypedChecks.device(for: receipt)
        XCTAssertEqual(device.kind, .macAddress)
        XCTAssertEqual(device.formatted, "01:02:03:04:05:06")
        XCTAssertNil(ReceiptTypedChecks.deviceHash(receipt))
    }

    /// Without attribute 4 no hash can be computed, and nothing matches.
    func testNoOpaqueValueNoHash() {
        var receipt = Self.receipt
        receipt.opaqueValue = nil
        XCTAssertNil(ReceiptTypedChecks.deviceHash(receipt))
        XCTAssertNil(VerifierPolicyChecks.policyFinding(receipt))
    }

    func testErrorDescriptionsNameTheirOffset() {
        let inside = ReceiptError.malformed(BERError(.truncated, at: 3, "needs 2 bytes, 1 left", path: ["payload"]))
        XCTAssertNil(ReceiptTypedChecks.check(inside, inputCount: 10))
        let outside = ReceiptError.malformed(BERError(.truncated, at: 11, "needs 2 bytes, 1 left"))
        XCTAssertEqual(ReceiptTypedChecks.check(outside, inputCount: 10)?.signature, "receipt-error-description-difference")
        XCTAssertNil(ReceiptTypedChecks.check(.notPKCS7(.base64Text), inputCount: 10))
    }

    /// A container's algorithm identifiers (here the verifier finding's constructed-NULL
    /// receipt is refused, and a forged SHA-256 receipt passes).
    func testContainerAlgorithmIdentifiersRoundTrip() throws {
        let corpus = CorpusReplayTests.corpus.appendingPathComponent("receipt")
        let signed = try [UInt8](Data(contentsOf: corpus.appendingPathComponent("ac0e3d9773a0c7093861978c399685f23d0bbeae")))
        let container = try PKCS7SignedData(bytes: signed)
        XCTAssertNotNil(container.signerInfos.first?.signedAttributes)
        XCTAssertNil(ReceiptTypedChecks.check(container))
        let constructedNull = try [UInt8](Data(contentsOf: corpus.appendingPathComponent("4523fd8e26b77d9189d3489efb25530e7481605d")))
        XCTAssertThrowsError(try PKCS7SignedData(bytes: constructedNull)) { error in
            guard let error = error as? ReceiptError else { return XCTFail("\(error)") }
            XCTAssertNil(ReceiptTypedChecks.check(error, inputCount: constructedNull.count))
            XCTAssertTrue(error.description.contains("constructed NULL"), error.description)
        }
    }
}
