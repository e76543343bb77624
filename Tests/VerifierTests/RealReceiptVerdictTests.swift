import BER
import Foundation
import Receipt
import ReceiptVerifier
import TestSupport
import XCTest

/// The 25 real receipts of `../shared/real-receipts` (and the two iOS 6 ones).
final class RealReceiptVerdictTests: XCTestCase {
    /// A fixed "today" after every App Store certificate in the set expired (the last
    /// leaf, of receipt-sandbox-g5, ends 2026-08-23).
    static let today = Date(timeIntervalSince1970: TimeInterval(ASN1Time(year: 2026, month: 9, day: 1).secondsSince1970))

    static func validator(_ entry: RealReceipts.Entry, device: DeviceCheck? = nil,
                          at time: ChainValidationTime = .creationDate) throws -> ReceiptValidator {
        let anchors = try ReceiptValidator.anchors(der: [try RealReceipts.anchor(try XCTUnwrap(entry.trustAnchor))])
        let known = try entry.deviceIdentifier.map { try XCTUnwrap(DeviceIdentifier(hex: $0.hex)) }
        let options = ReceiptValidator.Options(
            bundleIdentifier: try XCTUnwrap(entry.bundleId), appVersion: entry.appVersion,
            device: device ?? known.map(DeviceCheck.identifier) ?? .skip, chainValidationTime: time)
        return ReceiptValidator(anchors: anchors, options: options, clock: { today })
    }

    func testEveryRealReceiptIsValidAtItsCreationDate() throws {
        let receipts = try RealReceipts.pkcs7Receipts()
        XCTAssertEqual(receipts.count, 25)
        for (entry, bytes) in receipts {
            let verdict = try Self.validator(entry).validate(bytes)
            XCTAssertEqual(verdict.reason, .valid, "\(entry.name): \(verdict.detail)")
            XCTAssertEqual(verdict.receipt?.bundleIdentifier, entry.bundleId, entry.name)
            XCTAssertEqual(verdict.receipt?.creationDate?.text, entry.creationDate, entry.name)
            XCTAssertEqual(verdict.chain.count, entry.trustAnchor!.hasSuffix("StoreKitTestCertificate.cer") ? 1 : 3, entry.name)
        }
    }

    func testAppStoreReceiptsFailAtTodaysDate() throws {
        var appStore = 0
        for (entry, bytes) in try RealReceipts.pkcs7Receipts() where entry.trustAnchor == "anchors/AppleIncRootCertificate.cer" {
            appStore += 1
            let verdict = try Self.validator(entry, at: .now).validate(bytes)
            XCTAssertEqual(verdict.reason, .certificateExpired, "\(entry.name): \(verdict.detail)")
            XCTAssertEqual(verdict.chainFailure, .expired, verdict.detail)
        }
        XCTAssertGreaterThan(appStore, 15)
    }

    func testDeviceHashMatchesOnlyTheKnownDevices() throws {
        let known = try RealReceipts.pkcs7Receipts().filter { $0.0.deviceIdentifier != nil }
        XCTAssertEqual(known.count, 5)
        for (entry, bytes) in known {
            XCTAssertEqual(try Self.validator(entry).validate(bytes).reason, .valid, entry.name)
            var other = try XCTUnwrap(DeviceIdentifier(hex: entry.deviceIdentifier!.hex)).bytes
            other[other.count - 1] ^= 0x01
            let verdict = try Self.validator(entry, device: .identifier(DeviceIdentifier(bytes: other)!)).validate(bytes)
            XCTAssertEqual(verdict.reason, .deviceHashMismatch, "\(entry.name): \(verdict.detail)")
        }
    }

    func testIOS6TransactionReceiptsAreMalformedWithAClearDetail() throws {
        let plists = try RealReceipts.entries().filter { !$0.isPKCS7 }
        XCTAssertEqual(plists.count, 2)
        let validator = ReceiptValidator(anchors: [], options: .init(bundleIdentifier: "x", device: .skip))
        for entry in plists {
            let verdict = validator.validate(try RealReceipts.bytes(of: entry), now: Self.today)
            XCTAssertEqual(verdict.reason, .malformed, entry.name)
            XCTAssertTrue(verdict.detail.contains("iOS 6"), "\(entry.name): \(verdict.detail)")
        }
    }

    /// App Store receipts fail without the Apple root; Xcode receipts verify against the
    /// StoreKit certificate only.
    func testTheListedAnchorIsRequired() throws {
        let storeKit = try ReceiptValidator.anchors(der: [try RealReceipts.anchor("anchors/StoreKitTestCertificate.cer")])
        let apple = try ReceiptValidator.anchors(der: [try RealReceipts.anchor("anchors/AppleIncRootCertificate.cer")])
        for (entry, bytes) in try RealReceipts.pkcs7Receipts() {
            let isAppStore = entry.trustAnchor == "anchors/AppleIncRootCertificate.cer"
            let validator = ReceiptValidator(anchors: isAppStore ? storeKit : apple,
                                             options: .init(bundleIdentifier: entry.bundleId!, device: .skip))
            let verdict = validator.validate(bytes, now: Self.today)
            XCTAssertEqual(verdict.reason, .untrustedChain, entry.name)
            // Apple's root is not the StoreKit anchor; the StoreKit certificate, not trusted
            // directly, is held to the App Store rules and lacks the receipt-signing marker.
            XCTAssertEqual(verdict.chainFailure, isAppStore ? .untrustedRoot : .missingReceiptSigningMarker,
                           "\(entry.name): \(verdict.detail)")
        }
    }
}
