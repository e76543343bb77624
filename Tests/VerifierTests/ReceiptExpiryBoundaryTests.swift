import BER
import Foundation
import Receipt
import ReceiptForge
import ReceiptVerifier
import XCTest
import ForgeSupport

/// The VPP expiry boundary (attribute 21 equal to `now`) on both sides: the verifier
/// says expired from the expiry instant on (`ReceiptExpirationPolicy`), and the forge
/// never mints a fixture whose verdict hinges on that second.
final class ReceiptExpiryBoundaryTests: XCTestCase {
    static let now = ASN1Time(year: 2030, month: 6, day: 15).secondsSince1970

    func reason(expiry: ReceiptDate?, now: Int64) -> VerdictReason? {
        var receipt = AppReceipt()
        receipt.expirationDate = expiry
        return ReceiptExpirationPolicy().check(receipt, now: ASN1Time(secondsSince1970: now))?.reason
    }

    func testPolicyIsExpiredFromTheExpiryInstantOn() {
        let now = Self.now
        XCTAssertNil(reason(expiry: ReceiptDate(secondsSince1970: now + 1), now: now), "expiry a second after now")
        XCTAssertEqual(reason(expiry: ReceiptDate(secondsSince1970: now), now: now), .receiptExpired, "expiry equal to now")
        XCTAssertEqual(reason(expiry: ReceiptDate(secondsSince1970: now - 1), now: now), .receiptExpired, "expiry before now")
        // To the second: a fraction of the expiry's second does not postpone it.
        let fractional = ReceiptDate(secondsSince1970: now, nanoseconds: 500_000_000, fractionDigits: 3)
        XCTAssertEqual(reason(expiry: fractional, now: now), .receiptExpired, fractional.text)
        XCTAssertNil(reason(expiry: fractional, now: now - 1), fractional.text)
        XCTAssertNil(reason(expiry: nil, now: now), "no attribute 21: never expires")
    }

    /// The whole validator on the forge's `vpp-expired` receipt, with the clock around
    /// its expiry (`now` as a `Date`, whose fraction is dropped).
    func testValidatorAtTheExpirySecond() throws {
        let minted = try Fixtures.minted("vpp-expired")
        let receipt = try XCTUnwrap(minted.receipt)
        let validator = try Fixtures.validator(minted.description)
        let expiry = try XCTUnwrap(validator.validate(receipt, now: Fixtures.now).receipt?.expirationDate).secondsSince1970
        let cases: [(TimeInterval, VerdictReason)] = [(-1, .valid), (-0.25, .valid), (0, .receiptExpired), (0.75, .receiptExpired),
                                                      (1, .receiptExpired)]
        for (offset, expected) in cases {
            let now = Date(timeIntervalSince1970: TimeInterval(expiry) + offset)
            XCTAssertEqual(validator.validate(receipt, now: now).reason, expected, "now = expiry \(offset) s")
        }
    }

    /// `vpp` and `vpp-expired` minted at the edges of `--now`'s range and at fixed-seed
    /// points inside it: each expiry lies at least a day from that `now`, on the side
    /// the case's verdict needs, and the validator agrees with the case.
    func testForgeNeverMintsAnExpiryNearNow() throws {
        let allowed = ForgeSettings.allowedNow
        var random = DeterministicRandom(seed: 0x0E_C1_2E)
        var nows = [allowed.lowerBound, ForgeSettings.defaultNow, allowed.upperBound]
        for _ in 0..<4 { nows.append(allowed.lowerBound + Int64(random.int(in: 0...Int(allowed.upperBound - allowed.lowerBound)))) }
        let day: Int64 = 86_400
        for now in nows {
            let forge = Forge(settings: ForgeSettings(now: now))
            for id in ["vpp", "vpp-expired"] {
                let minted = try forge.mint(try XCTUnwrap(ForgeCase.named(id)))
                let receipt = try XCTUnwrap(minted.receipt)
                let decoded = try PKCS7SignedData(bytes: receipt).decodeReceipt()
                let expiry = try XCTUnwrap(decoded.expirationDate).secondsSince1970
                let label = "\(id) minted with now \(ReceiptDate(secondsSince1970: now).text)"
                if minted.forgeCase.expected == .valid {
                    XCTAssertGreaterThanOrEqual(expiry, now + day, label)
                } else {
                    XCTAssertLessThanOrEqual(expiry, now - day, label)
                    XCTAssertGreaterThan(expiry, forge.settings.creationDate, label)
                }
                let validator = try Fixtures.validator(minted.description)
                let verdict = validator.validate(receipt, now: Date(timeIntervalSince1970: TimeInterval(now)))
                XCTAssertEqual(verdict.reason, minted.forgeCase.expected, "\(label): \(verdict)")
            }
        }
    }
}
