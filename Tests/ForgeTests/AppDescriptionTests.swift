import Receipt
import ReceiptForge
import XCTest
import AppInput

/// Every case minted for the user's app: its bundle, versions, device, environment,
/// and purchases from its catalogue or its own list.
final class AppDescriptionTests: XCTestCase {
    static let device = DeviceIdentifier(text: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7")!
    static let acme = AppDescription(bundleIdentifier: "com.acme.shop", version: "7.1", originalVersion: "3.0", device: device)
    static let acmeCases = try! Forge(app: acme).mintAll()

    func receipt(_ minted: MintedCase) throws -> AppReceipt {
        try PKCS7SignedData(bytes: try XCTUnwrap(minted.receipt, minted.forgeCase.id)).decodeReceipt()
    }

    func testEveryCaseIsMintedForTheApp() throws {
        for minted in Self.acmeCases where minted.receipt != nil && minted.forgeCase.id != "not-pkcs7"
            && minted.forgeCase.id != "truncated" && minted.forgeCase.id != "malformed-payload" && minted.forgeCase.id != "trailing-data" {
            let id = minted.forgeCase.id
            let receipt = try receipt(minted)
            XCTAssertEqual(minted.description.app.bundleId, "com.acme.shop", id)
            XCTAssertEqual(receipt.bundleIdentifier, id == "wrong-bundle" ? "com.example.otherapp" : "com.acme.shop", id)
            XCTAssertEqual(minted.description.app.version, "7.1", id)
            XCTAssertEqual(receipt.appVersion, id == "wrong-version" ? "7.0" : "7.1", id)
            if minted.description.app.platform == .ios {
                XCTAssertEqual(minted.description.device.uuid, Self.device.formatted, id)
            } else {
                XCTAssertEqual(id, "macos-device", "only the Mac case leaves the iOS device")
                XCTAssertNotNil(minted.description.device.mac)
            }
            if id != "sandbox" && id != "xcode-storekit" {
                XCTAssertEqual(receipt.originalApplicationVersion, "3.0", id)
            }
            let hashed = receipt.attribute(AppReceipt.Field.sha1Hash)?.value
            let expected = DeviceHash.compute(device: DeviceIdentifier(hex: minted.description.device.hex)!,
                                              opaqueValue: receipt.opaqueValue ?? [],
                                              bundleIdentifierValue: receipt.bundleIdentifierValue ?? [])
            XCTAssertEqual(hashed == expected, id != "copied-device", "\(id): device hash")
        }
    }

    func testSandboxEnvironmentAndMacPlatform() throws {
        let sandbox = try Forge(app: AppDescription(bundleIdentifier: "com.acme.shop", environment: .sandbox)).mint(.valid)
        let receipt = try receipt(sandbox)
        XCTAssertEqual(receipt.environment, "ProductionSandbox")
        XCTAssertEqual(receipt.appItemID, 0)
        XCTAssertEqual(receipt.originalApplicationVersion, "1.0")

        let mac = DeviceIdentifier(text: "6c:40:08:b5:94:5e")!
        let macApp = AppDescription(bundleIdentifier: "com.acme.mac", version: "2.1", device: mac)
        XCTAssertEqual(macApp.platform, .macos, "a MAC address implies macOS")
        let minted = try Forge(app: macApp).mint(.valid)
        XCTAssertEqual(minted.description.device.mac, "6c:40:08:b5:94:5e")
        XCTAssertEqual(minted.description.app.platform, .macos)
        XCTAssertEqual(try self.receipt(minted).originalApplicationVersion, "2.0")

        XCTAssertNotNil(AppDescription(platform: .macos, device: Self.device).problem, "a UUID for a Mac is refused")
        XCTAssertNotNil(AppDescription(bundleIdentifier: "").problem)
        XCTAssertNil(Self.acme.problem)
    }

    func testTheExampleAppIsTheDefault() throws {
        XCTAssertEqual(try Forge().mint(.valid).receipt, try Forge(app: .example).mint(.valid).receipt)
        XCTAssertEqual(try Forge(app: AppDescription()).mint(.valid).receipt, try Forge().mint(.valid).receipt)
        XCTAssertNotEqual(try Forge(app: Self.acme).mint(.valid).receipt, try Forge().mint(.valid).receipt)
    }

    // MARK: A catalogue

    static let catalogue = ProductCatalogue(products: [
        Product(id: "com.acme.shop.gems", kind: .consumable),
        Product(id: "com.acme.shop.premium", kind: .nonConsumable),
        Product(id: "com.acme.shop.season", kind: .nonRenewingSubscription),
        Product(id: "com.acme.shop.monthly", kind: .autoRenewableSubscription,
                period: SubscriptionPeriod(iso8601: "P1M"),
                introductoryOffer: IntroductoryOffer(paymentMode: .free, period: SubscriptionPeriod(iso8601: "P1W")!),
                groupID: "1"),
        Product(id: "com.acme.shop.yearly", kind: .autoRenewableSubscription, period: SubscriptionPeriod(iso8601: "P1Y"),
                introductoryOffer: IntroductoryOffer(paymentMode: .payAsYouGo, period: SubscriptionPeriod(iso8601: "P1M")!,
                                                     periodCount: 2),
                groupID: "1"),
    ])

    func testACatalogueBecomesAHistoryOfOnlyItsProducts() throws {
        let forge = Forge(app: AppDescription(bundleIdentifier: "com.acme.shop", purchases: .catalogue(Self.catalogue)))
        let ids = Set(Self.catalogue.products.map(\.id))
        for minted in try forge.mintAll() {
            guard let file = minted.receipt, let receipt = try? PKCS7SignedData(bytes: file).decodeReceipt() else { continue }
            let products = Set(receipt.inAppPurchases.compactMap(\.productIdentifier))
            XCTAssertTrue(products.isSubset(of: ids), "\(minted.forgeCase.id): \(products.subtracting(ids))")
            XCTAssertFalse(products.isEmpty, minted.forgeCase.id)
        }
        let valid = try receipt(try forge.mint(.valid))
        let creation = try XCTUnwrap(valid.creationDate?.secondsSince1970)
        let records = valid.inAppPurchases
        XCTAssertEqual(Set(records.compactMap(\.productIdentifier)), ids)
        for product in ["com.acme.shop.monthly", "com.acme.shop.yearly"] {
            let periods = records.filter { $0.productIdentifier == product }
                .sorted { $0.purchaseDate!.secondsSince1970 < $1.purchaseDate!.secondsSince1970 }
            XCTAssertEqual(Set(periods.compactMap(\.originalTransactionIdentifier)).count, 1, "\(product): one original id")
            XCTAssertEqual(periods.first?.originalTransactionIdentifier, periods.first?.transactionIdentifier)
            XCTAssertEqual(Set(periods.compactMap(\.webOrderLineItemID)).count, periods.count, "\(product): distinct web order ids")
            for (earlier, later) in zip(periods, periods.dropFirst()) {
                XCTAssertEqual(earlier.subscriptionExpirationDate?.secondsSince1970, later.purchaseDate?.secondsSince1970,
                               "\(product): renewals follow each other")
            }
            let latest = try XCTUnwrap(periods.last)
            XCTAssertLessThanOrEqual(latest.purchaseDate!.secondsSince1970, creation)
            XCTAssertGreaterThan(latest.subscriptionExpirationDate!.secondsSince1970, creation, "\(product): active")
        }
        let monthly = records.filter { $0.productIdentifier == "com.acme.shop.monthly" }
        XCTAssertEqual(monthly.filter { $0.isTrialPeriod == true }.count, 1, "the free week")
        let yearly = records.filter { $0.productIdentifier == "com.acme.shop.yearly" }
        XCTAssertEqual(yearly.filter { $0.isInIntroOfferPeriod == true }.count, 2, "two intro months")
        XCTAssertEqual(records.filter { $0.cancellationDate != nil }.count, 1, "one refunded period")
        XCTAssertEqual(records.first { $0.productIdentifier == "com.acme.shop.gems" }?.productType, 1)
        XCTAssertEqual(records.first { $0.productIdentifier == "com.acme.shop.season" }?.productType, 2)

        let many = try receipt(try forge.mint(ForgeCase.named("many-iaps")!))
        XCTAssertEqual(many.inAppPurchaseCount, 180)
    }

    func testAnExplicitListIsWrittenAsGiven() throws {
        let bought = ReceiptDate("2026-04-01T10:00:00Z")!.secondsSince1970
        let list = [
            PurchaseDescription(productID: "com.acme.shop.gems", kind: .consumable, quantity: 5, transactionID: "1000000000000001",
                                purchaseDate: bought),
            PurchaseDescription(productID: "com.acme.shop.monthly", kind: .autoRenewableSubscription,
                                transactionID: "1000000000000003", originalTransactionID: "1000000000000002",
                                purchaseDate: bought + 86_400, originalPurchaseDate: bought, expiresDate: bought + 31 * 86_400,
                                cancellationDate: bought + 2 * 86_400, isInIntroOfferPeriod: true, webOrderLineItemID: 77,
                                promotionalOfferID: "spring"),
        ]
        let minted = try Forge(app: AppDescription(bundleIdentifier: "com.acme.shop", purchases: .explicit(list))).mint(.valid)
        let records = try receipt(minted).inAppPurchases
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records[0].quantity, 5)
        XCTAssertEqual(records[0].transactionIdentifier, "1000000000000001")
        XCTAssertEqual(records[1].originalTransactionIdentifier, "1000000000000002")
        XCTAssertEqual(records[1].originalPurchaseDate?.secondsSince1970, bought)
        XCTAssertEqual(records[1].subscriptionExpirationDate?.secondsSince1970, bought + 31 * 86_400)
        XCTAssertEqual(records[1].cancellationDate?.secondsSince1970, bought + 2 * 86_400)
        XCTAssertEqual(records[1].webOrderLineItemID, 77)
        XCTAssertEqual(records[1].isInIntroOfferPeriod, true)
        XCTAssertEqual(records[1].promotionalOfferIdentifier, "spring")
        XCTAssertEqual(minted.description.app.productIds, ["com.acme.shop.gems", "com.acme.shop.monthly"])
    }

    func testPeriodsParseOnlyTheirISO8601Form() {
        XCTAssertEqual(SubscriptionPeriod(iso8601: "P1M")?.seconds, 30 * 86_400)
        XCTAssertEqual(SubscriptionPeriod(iso8601: "P3D")?.description, "P3D")
        XCTAssertEqual(SubscriptionPeriod(iso8601: "P1Y")?.unit, .year)
        for bad in ["", "P", "PM", "P0M", "P1", "1M", "P1H", "P-1M", "P1000D", "P١M", "P1MM"] {
            XCTAssertNil(SubscriptionPeriod(iso8601: bad), bad)
        }
    }
}
