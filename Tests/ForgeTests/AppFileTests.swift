import Foundation
import Receipt
import ReceiptForge
import XCTest
import AppInput
import StrictJSON

final class AppFileTests: XCTestCase {
    private func parse(_ json: String, file: String = "app.json") throws(JSONInputError) -> AppFile {
        try AppFile(json: Array(json.utf8), file: file)
    }

    /// The example file: every app field and every purchase field, dates with offsets
    /// (`+02:00`, `+0100`), 64-bit web order line item ids read exactly (2^53 + 1 is
    /// where a `Double` would round).
    func testExampleFileGivesEveryField() throws {
        let app = try AppFile(contentsOfFile: InputFiles.path("shop.app.json"))
        XCTAssertEqual(app.bundleIdentifier, "com.acme.shop")
        XCTAssertEqual(app.version, "7.1")
        XCTAssertEqual(app.originalVersion, "6.0")
        XCTAssertEqual(app.platform, .ios)
        XCTAssertEqual(app.device, DeviceIdentifier(uuidString: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"))
        XCTAssertEqual(app.environment, .sandbox)
        XCTAssertNil(app.storekitPath)
        XCTAssertEqual(app.purchases, .explicit(InputFiles.everyPurchaseField))
    }

    /// `storekit` is resolved against the app file's folder and read: the purchase plan
    /// is that file's catalogue, and errors inside it name the `.storekit` file.
    func testStorekitIsResolvedAgainstTheAppFile() throws {
        let app = try AppFile(contentsOfFile: InputFiles.path("shop-storekit.app.json"))
        XCTAssertEqual(app.storekitPath, InputFiles.path("Shop-v4.storekit"))
        let catalogue = try StoreKitConfiguration(contentsOfFile: InputFiles.path("Shop-v4.storekit")).catalogue
        XCTAssertEqual(catalogue.products.count, 9)
        XCTAssertEqual(app.purchases, .catalogue(catalogue))
        XCTAssertEqual(app.device?.kind, .macAddress)
        XCTAssertNil(app.platform)
        XCTAssertNil(app.environment)
    }

    func testStorekitPathForms() throws {
        let directory = try scratchDirectory(for: self)
        try Data(#"{"products": [{"productID": "p", "type": "Consumable"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("Shop.storekit"))
        let absolute = directory.appendingPathComponent("Shop.storekit").path
        // An absolute path is used as it is, wherever the app file is.
        let fromAbsolute = try parse(#"{"storekit": "\#(absolute)"}"#, file: "elsewhere/app.json")
        XCTAssertEqual(fromAbsolute.storekitPath, absolute)
        XCTAssertEqual(fromAbsolute.purchases, .catalogue(ProductCatalogue(products: [Product(id: "p", kind: .consumable)])))
        // A relative path from an app file named without a folder is relative to the working directory.
        XCTAssertEqual(inputError { try parse(#"{"storekit": "no-such.storekit"}"#, file: "app.json") }?.description,
                       "app.json: $.storekit: cannot use the StoreKit configuration no-such.storekit: cannot read: no such file")
    }

    func testStorekitErrorsNameTheStorekitFile() throws {
        let directory = try scratchDirectory(for: self)
        try Data(#"{"products": [{"productID": "p", "type": "Bundle"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("Bad.storekit"))
        let appPath = directory.appendingPathComponent("app.json").path
        let error = inputError { try parse(#"{"storekit": "Bad.storekit"}"#, file: appPath) }
        XCTAssertEqual(error?.kind, .invalid)
        XCTAssertEqual(error?.file, directory.appendingPathComponent("Bad.storekit").path)
        XCTAssertEqual(error?.location, "$.products[0].type")

        let missing = inputError { try parse(#"{"storekit": "Missing.storekit"}"#, file: appPath) }
        XCTAssertEqual(missing?.kind, .unreadable)
        XCTAssertEqual(missing?.file, appPath)
        XCTAssertEqual(missing?.location, "$.storekit")
        XCTAssertEqual(missing?.reason, "cannot use the StoreKit configuration \(directory.path)/Missing.storekit: "
            + "cannot read: no such file")
    }

    // MARK: apply(to:)

    private let base = AppDescription(bundleIdentifier: "com.base.app", version: "1", originalVersion: "0.9", platform: .ios,
                                      device: DeviceIdentifier(uuidString: "00000000-0000-0000-0000-000000000001"),
                                      environment: .production, purchases: .builtIn)

    func testApplyOverridesOnlyWhatTheFileSets() throws {
        var expected = base
        expected.bundleIdentifier = "com.acme.shop"
        XCTAssertEqual(try AppFile(contentsOfFile: InputFiles.path("minimal.app.json")).apply(to: base), expected)
        XCTAssertEqual(try parse("{}").apply(to: base), base)
        XCTAssertEqual(AppFile().apply(to: base), base)
    }

    func testApplyOverridesEverything() throws {
        let app = try AppFile(contentsOfFile: InputFiles.path("shop.app.json"))
        let applied = app.apply(to: base)
        XCTAssertEqual(applied.bundleIdentifier, "com.acme.shop")
        XCTAssertEqual(applied.version, "7.1")
        XCTAssertEqual(applied.originalVersion, "6.0")
        XCTAssertEqual(applied.platform, .ios)
        XCTAssertEqual(applied.device, app.device)
        XCTAssertEqual(applied.environment, .sandbox)
        XCTAssertEqual(applied.purchases, app.purchases)
        XCTAssertNil(applied.problem)
    }

    /// A MAC address without a platform makes the app a Mac app (as `AppDescription`
    /// infers it); a platform in the file wins.
    func testApplyInfersThePlatformFromTheDevice() throws {
        let mac = try AppFile(contentsOfFile: InputFiles.path("shop-storekit.app.json")).apply(to: base)
        XCTAssertEqual(mac.platform, .macos)
        XCTAssertNil(mac.problem)
        let macBase = AppDescription(platform: .macos)
        XCTAssertEqual(try parse(#"{"deviceId": "956328d9cc6a47f4be406953fb0ab6c7"}"#).apply(to: macBase).platform, .ios)
        XCTAssertEqual(try parse(#"{"platform": "macos"}"#).apply(to: base).platform, .macos)
        XCTAssertEqual(try parse(#"{"platform": "macos"}"#).apply(to: base).device, base.device)
    }

    // MARK: Refusals

    func testUnknownFieldIsRefusedWithASuggestion() {
        let error = inputError { try parse(#"{"bundleId": "a", "bundleID": "b"}"#) }
        XCTAssertEqual(error?.kind, .invalid)
        XCTAssertEqual(error?.location, "$.bundleID")
        XCTAssertEqual(error?.description, "app.json: $.bundleID: unknown field 'bundleID' (did you mean 'bundleId'? known fields: "
            + "$schema, appVersion, bundleId, deviceId, environment, originalAppVersion, platform, purchases, storekit)")
        let purchase = inputError {
            try parse(#"{"purchases": [{"productId": "a", "type": "consumable", "purchaseDate": "2025-01-01T00:00:00Z", "quantty": 2}]}"#)
        }
        XCTAssertEqual(purchase?.location, "$.purchases[0].quantty")
        XCTAssertTrue(purchase?.reason.hasPrefix("unknown field 'quantty' (did you mean 'quantity'?") ?? false, "\(String(describing: purchase))")
        let nothingClose = inputError { try parse(#"{"colour": "red"}"#) }
        XCTAssertTrue(nothingClose?.reason.hasPrefix("unknown field 'colour' (known fields: ") ?? false, "\(String(describing: nothingClose))")
    }

    func testBadDeviceIDIsRefused() {
        let error = inputError { try parse(#"{"deviceId": "not-a-device"}"#) }
        XCTAssertEqual(error?.description, "app.json: $.deviceId: 'not-a-device' is not a device identifier (expected a UUID such as "
            + "956328D9-CC6A-47F4-BE40-6953FB0AB6C7, a MAC address such as 6c:40:08:b5:94:5e, or 32 or 12 hex digits)")
        for bad in ["956328D9-CC6A-47F4-BE40-6953FB0AB6C", "6c:40:08:b5:94", "abc", "956328d9cc6a47f4be406953fb0ab6c7ff", ""] {
            XCTAssertEqual(inputError { try parse(#"{"deviceId": "\#(bad)"}"#) }?.location, "$.deviceId", bad)
        }
    }

    /// One row per rule: the document, the location named, and words of the reason.
    func testRefusalsNameTheLocation() {
        func purchase(_ fields: String, type: String = "autoRenewableSubscription") -> String {
            #"{"purchases": [{"productId": "p", "type": "\#(type)", "purchaseDate": "2025-03-01T10:00:00Z"\#(fields)}]}"#
        }
        let cases: [(json: String, location: String, reason: String)] = [
            (#"[]"#, "$", "expected an object, found an array"),
            (#"{"bundleId": ""}"#, "$.bundleId", "must not be empty"),
            (#"{"bundleId": null}"#, "$.bundleId", "expected a string, found null"),
            (#"{"appVersion": 7.1}"#, "$.appVersion", "expected a string, found a number"),
            (#"{"originalAppVersion": ["1"]}"#, "$.originalAppVersion", "expected a string, found an array"),
            (#"{"platform": "android"}"#, "$.platform", "unsupported platform 'android' (expected ios, macos)"),
            (#"{"platform": "iOS"}"#, "$.platform", "unsupported platform 'iOS'"),
            (#"{"environment": "production"}"#, "$.environment", "unsupported environment 'production' (expected Production, Sandbox)"),
            (#"{"platform": "ios", "deviceId": "6c:40:08:b5:94:5e"}"#, "$.deviceId",
             "6c:40:08:b5:94:5e is a MAC address, but the platform is ios"),
            (#"{"platform": "macos", "deviceId": "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"}"#, "$.deviceId", "is a UUID, but the platform is macos"),
            (#"{"storekit": "Shop.storekit", "purchases": []}"#, "$.purchases", "not both"),
            (#"{"storekit": ""}"#, "$.storekit", "must not be empty"),
            (#"{"purchases": {}}"#, "$.purchases", "expected an array, found an object"),
            (#"{"purchases": [42]}"#, "$.purchases[0]", "expected an object, found a number"),
            (#"{"purchases": [{"type": "consumable", "purchaseDate": "2025-03-01T10:00:00Z"}]}"#,
             "$.purchases[0].productId", "required field 'productId' is missing"),
            (#"{"purchases": [{"productId": "p", "purchaseDate": "2025-03-01T10:00:00Z"}]}"#,
             "$.purchases[0].type", "required field 'type' is missing"),
            (#"{"purchases": [{"productId": "p", "type": "consumable"}]}"#, "$.purchases[0].purchaseDate", "required field"),
            (purchase("", type: "Consumable"), "$.purchases[0].type",
             "unsupported product type 'Consumable' (expected consumable, nonConsumable, nonRenewingSubscription, autoRenewableSubscription)"),
            (#"{"purchases": [{"productId": "p", "type": "consumable", "purchaseDate": "2025-03-01"}]}"#, "$.purchases[0].purchaseDate",
             "'2025-03-01' is not an RFC 3339 date"),
            (#"{"purchases": [{"productId": "p", "type": "consumable", "purchaseDate": "2025-02-29T10:00:00Z"}]}"#,
             "$.purchases[0].purchaseDate", "is not an RFC 3339 date"),
            (#"{"purchases": [{"productId": "p", "type": "consumable", "purchaseDate": "2025-03-01T10:00:00.5Z"}]}"#,
             "$.purchases[0].purchaseDate", "has a fraction of a second"),
            (#"{"purchases": [{"productId": "p", "type": "consumable", "purchaseDate": 1740823200}]}"#,
             "$.purchases[0].purchaseDate", "expected a string, found a number"),
            (purchase(#", "quantity": 0"#), "$.purchases[0].quantity", "expected an integer of at least 1, found 0"),
            (purchase(#", "quantity": -1"#), "$.purchases[0].quantity", "found -1"),
            (purchase(#", "quantity": 1.5"#), "$.purchases[0].quantity", "found 1.5, which is not a whole number"),
            (purchase(#", "quantity": "2""#), "$.purchases[0].quantity", "found a string"),
            (purchase(#", "quantity": true"#), "$.purchases[0].quantity", "found a boolean"),
            (purchase(#", "transactionId": """#), "$.purchases[0].transactionId", "must not be empty"),
            (purchase(#", "originalTransactionId": 1000"#), "$.purchases[0].originalTransactionId", "expected a string"),
            (purchase(#", "originalPurchaseDate": "2025-03-02T00:00:00Z""#), "$.purchases[0].originalPurchaseDate",
             "is after purchaseDate 2025-03-01T10:00:00Z"),
            (purchase(#", "expiresDate": "2025-04-01T10:00:00Z""#, type: "consumable"), "$.purchases[0].expiresDate",
             "only auto-renewable subscriptions expire (attribute 1708), but this purchase's type is consumable"),
            (purchase(#", "expiresDate": "2025-04-01T10:00:00Z""#, type: "nonRenewingSubscription"), "$.purchases[0].expiresDate",
             "only auto-renewable subscriptions expire"),
            (purchase(#", "expiresDate": "2025-03-01T10:00:00Z""#), "$.purchases[0].expiresDate",
             "2025-03-01T10:00:00Z is not after purchaseDate 2025-03-01T10:00:00Z"),
            (purchase(#", "expiresDate": "2025-03-01T11:59:59+02:00""#), "$.purchases[0].expiresDate", "is not after purchaseDate"),
            (purchase(#", "cancellationDate": "2025-02-28T10:00:00Z""#), "$.purchases[0].cancellationDate", "is before purchaseDate"),
            (purchase(#", "cancellationReason": 1"#), "$.purchases[0].cancellationReason", "needs a cancellationDate"),
            (purchase(#", "cancellationDate": "2025-03-02T10:00:00Z", "cancellationReason": 2"#),
             "$.purchases[0].cancellationReason", "expected an integer from 0 to 1, found 2"),
            (purchase(#", "isTrialPeriod": "yes""#), "$.purchases[0].isTrialPeriod", "expected true or false, found a string"),
            (purchase(#", "isTrialPeriod": true"#, type: "nonConsumable"), "$.purchases[0].isTrialPeriod",
             "only auto-renewable subscriptions have free trials, but this purchase's type is nonConsumable"),
            (purchase(#", "isInIntroOfferPeriod": true"#, type: "consumable"), "$.purchases[0].isInIntroOfferPeriod",
             "only auto-renewable subscriptions have introductory offers"),
            (purchase(#", "isTrialPeriod": true, "isInIntroOfferPeriod": true"#), "$.purchases[0].isInIntroOfferPeriod",
             "a free trial (isTrialPeriod) or a paid introductory offer, not both"),
            (purchase(#", "webOrderLineItemId": 9223372036854775808"#), "$.purchases[0].webOrderLineItemId",
             "expected an integer of at least 0, found 9223372036854775808"),
            (purchase(#", "webOrderLineItemId": -1"#), "$.purchases[0].webOrderLineItemId", "found -1"),
            (purchase(#", "webOrderLineItemId": "1000000012345678""#), "$.purchases[0].webOrderLineItemId", "found a string"),
            (purchase(#", "promotionalOfferId": "offer""#, type: "consumable"), "$.purchases[0].promotionalOfferId",
             "only auto-renewable subscriptions have promotional offers"),
            (purchase(#", "productId": "q""#), "$.purchases[0].productId", "the field 'productId' appears twice"),
        ]
        for (json, location, reason) in cases {
            let error = inputError { try parse(json) }
            XCTAssertEqual(error?.kind, .invalid, json)
            XCTAssertEqual(error?.file, "app.json", json)
            XCTAssertEqual(error?.location, location, json)
            XCTAssertTrue(error?.reason.contains(reason) ?? false, "\(json): \(error?.reason ?? "no error") lacks \(reason)")
        }
    }

    private struct NotOnePurchase: Error {}

    /// The one purchase `json` lists.
    private func only(_ json: String) throws -> PurchaseDescription {
        guard case .explicit(let list) = try parse(json).purchases, list.count == 1 else { throw NotOnePurchase() }
        return list[0]
    }

    /// What the rules allow at their edges.
    func testAcceptedEdges() throws {
        let fields = #""productId": "p", "type": "autoRenewableSubscription", "purchaseDate": "2025-03-01T10:00:00Z""#
        // A whole number written with a fraction or an exponent is an integer, as in JSON Schema.
        XCTAssertEqual(try only(#"{"purchases": [{\#(fields), "quantity": 2.0}]}"#).quantity, 2)
        XCTAssertEqual(try only(#"{"purchases": [{\#(fields), "quantity": 30e-1}]}"#).quantity, 3)
        XCTAssertEqual(try only(#"{"purchases": [{\#(fields), "quantity": 9223372036854775807}]}"#).quantity, Int64.max)
        // A zero fraction of a second is whole seconds; the same instant may be the original purchase.
        XCTAssertEqual(try only(#"{"purchases": [{\#(fields), "originalPurchaseDate": "2025-03-01T12:00:00.000+02:00"}]}"#)
                        .originalPurchaseDate, 1_740_823_200)
        // Cancelled the moment it was bought; one second of subscription.
        let edge = try only(#"{"purchases": [{\#(fields), "cancellationDate": "2025-03-01T10:00:00Z", "cancellationReason": 0, "expiresDate": "2025-03-01T10:00:01Z", "isTrialPeriod": false, "isInIntroOfferPeriod": false}]}"#)
        XCTAssertEqual(edge.cancellationDate, 1_740_823_200)
        XCTAssertEqual(edge.cancellationReason, 0)
        XCTAssertEqual(edge.expiresDate, 1_740_823_201)
        // Text fields keep escapes and non-ASCII exactly.
        let named = try parse(#"{"bundleId": "com.acme.caf\u00e9", "appVersion": "7.1 \"beta\" \ud83d\ude80"}"#)
        XCTAssertEqual(named.bundleIdentifier, "com.acme.café")
        XCTAssertEqual(named.version, "7.1 \"beta\" 🚀")
        XCTAssertEqual(try parse(#"{"purchases": []}"#).purchases, .explicit([]))
        XCTAssertEqual(try parse(#"{"$schema": "app.schema.json"}"#), AppFile())
    }
}
