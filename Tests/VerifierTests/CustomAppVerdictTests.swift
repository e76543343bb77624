import Foundation
import FuzzTargets
import Receipt
import ReceiptForge
import ReceiptVerifier
import XCTest
import AppInput

/// Fixtures minted for a user's app keep every expected verdict: the reference
/// verifier, given each case's own inputs, agrees case by case.
final class CustomAppVerdictTests: XCTestCase {
    /// Our verdict and OpenSSL's (`PKCS7_verify`, at the creation date) on every case.
    func assertEveryVerdict(_ app: AppDescription, file: StaticString = #filePath, line: UInt = #line) throws {
        for minted in try Forge(app: app).mintAll() {
            let verdict = try Fixtures.verdict(minted)
            XCTAssertEqual(verdict.reason, minted.forgeCase.expected, "\(minted.forgeCase.id): \(verdict.detail)",
                           file: file, line: line)
            guard let receipt = minted.receipt else { continue }
            let openSSL = try VerifierDifferential(anchorDER: minted.anchor)
                .compare(receipt, atSecondsSince1970: Int64(minted.creationDate.timeIntervalSince1970)).openSSL
            XCTAssertEqual(openSSL, minted.forgeCase.openSSL, "\(minted.forgeCase.id): OpenSSL", file: file, line: line)
        }
    }

    func testACustomIOSAppWithACatalogue() throws {
        let catalogue = ProductCatalogue(products: [
            Product(id: "com.acme.shop.gems", kind: .consumable),
            Product(id: "com.acme.shop.monthly", kind: .autoRenewableSubscription, period: SubscriptionPeriod(iso8601: "P1M"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .free, period: SubscriptionPeriod(iso8601: "P3D")!)),
        ])
        try assertEveryVerdict(AppDescription(bundleIdentifier: "com.acme.shop", version: "7.1",
                                              device: DeviceIdentifier(text: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"),
                                              purchases: .catalogue(catalogue)))
    }

    func testASandboxMacApp() throws {
        try assertEveryVerdict(AppDescription(bundleIdentifier: "com.acme.mac", version: "0", environment: .sandbox))
        try assertEveryVerdict(AppDescription(bundleIdentifier: "com.acme.mac", version: "3.2.0",
                                              device: DeviceIdentifier(text: "6c:40:08:b5:94:5e")))
    }
}
