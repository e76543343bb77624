import ReceiptForge
import XCTest
import AppInput

final class StoreKitConfigurationTests: XCTestCase {
    private func period(_ text: String) -> SubscriptionPeriod { SubscriptionPeriod(iso8601: text)! }

    /// Xcode 16 (format 4.0): settings, offer codes, promotional and win-back offers,
    /// two subscription groups; every product in file order.
    func testXcode16FileGivesItsCatalogue() throws {
        let configuration = try StoreKitConfiguration(contentsOfFile: InputFiles.path("Shop-v4.storekit"))
        XCTAssertEqual(configuration.version, StoreKitConfiguration.FormatVersion(major: 4, minor: 0))
        XCTAssertEqual(configuration.catalogue.products, [
            Product(id: "com.acme.shop.coins100", kind: .consumable),
            Product(id: "com.acme.shop.pro", kind: .nonConsumable),
            Product(id: "com.acme.shop.hints10", kind: .consumable),
            Product(id: "com.acme.shop.seasonpass", kind: .nonRenewingSubscription),
            Product(id: "com.acme.shop.plus.weekly", kind: .autoRenewableSubscription, period: period("P1W"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .payAsYouGo, period: period("P1W"), periodCount: 4),
                    groupID: "21502201"),
            Product(id: "com.acme.shop.plus.monthly", kind: .autoRenewableSubscription, period: period("P1M"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .free, period: period("P3D")), groupID: "21502201"),
            Product(id: "com.acme.shop.plus.yearly", kind: .autoRenewableSubscription, period: period("P1Y"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .payUpFront, period: period("P3M")), groupID: "21502201"),
            Product(id: "com.acme.shop.cloud.bimonthly", kind: .autoRenewableSubscription, period: period("P2M"),
                    groupID: "21502202"),
            Product(id: "com.acme.shop.cloud.halfyear", kind: .autoRenewableSubscription, period: period("P6M"),
                    groupID: "21502202"),
        ])
    }

    /// Xcode 14 (format 2.0), a synced file: settings with the App Store Connect ids.
    func testXcode14FileGivesItsCatalogue() throws {
        let configuration = try StoreKitConfiguration(contentsOfFile: InputFiles.path("Shop-v2.storekit"))
        XCTAssertEqual(configuration.version?.description, "2.0")
        XCTAssertEqual(configuration.catalogue.products, [
            Product(id: "com.acme.shop.coins100", kind: .consumable),
            Product(id: "com.acme.shop.pro", kind: .nonConsumable),
            Product(id: "com.acme.shop.seasonpass", kind: .nonRenewingSubscription),
            Product(id: "com.acme.shop.plus.monthly", kind: .autoRenewableSubscription, period: period("P1M"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .free, period: period("P1W")), groupID: "21432911"),
            Product(id: "com.acme.shop.plus.yearly", kind: .autoRenewableSubscription, period: period("P1Y"),
                    groupID: "21432911"),
        ])
    }

    /// Xcode 12/13 (format 1.2): no offer codes yet.
    func testXcode12FileGivesItsCatalogue() throws {
        let configuration = try StoreKitConfiguration(contentsOfFile: InputFiles.path("Tips-v1.storekit"))
        XCTAssertEqual(configuration.version, StoreKitConfiguration.FormatVersion(major: 1, minor: 2))
        XCTAssertEqual(configuration.catalogue.products, [
            Product(id: "com.acme.tips.small", kind: .consumable),
            Product(id: "com.acme.tips.supporter", kind: .autoRenewableSubscription, period: period("P1M"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .free, period: period("P1M")), groupID: "6D0B5A13"),
        ])
    }

    /// Fields the forge does not use are ignored wherever they are, including ones no
    /// Xcode has written yet; the newest files' `introductoryOffers` array is read; a
    /// subscription without `subscriptionGroupID` takes its group's id; no `version` is fine.
    func testUnusedAndNewerFieldsAreIgnored() throws {
        let json = """
        {
          "futureTopLevel": {"anything": [1, 2, {"deep": null}]},
          "products": [{"productID": "a", "type": "NonConsumable", "futureField": true}],
          "subscriptionGroups": [{
            "id": "G1", "futureGroupField": 3,
            "subscriptions": [{
              "productID": "b", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P3M",
              "billingPlans": [{"billingPlanType": "BILLED_UPFRONT"}],
              "introductoryOffers": [{"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 3}]
            }]
          }]
        }
        """
        let configuration = try StoreKitConfiguration(json: Array(json.utf8), file: "New.storekit")
        XCTAssertNil(configuration.version)
        XCTAssertEqual(configuration.catalogue.products, [
            Product(id: "a", kind: .nonConsumable),
            Product(id: "b", kind: .autoRenewableSubscription, period: period("P3M"),
                    introductoryOffer: IntroductoryOffer(paymentMode: .payAsYouGo, period: period("P1M"), periodCount: 3),
                    groupID: "G1"),
        ])
    }

    func testEmptyConfigurationHasNoProducts() throws {
        let json = #"{"products": [], "nonRenewingSubscriptions": [], "subscriptionGroups": [], "version": {"major": 3, "minor": 0}}"#
        let configuration = try StoreKitConfiguration(json: Array(json.utf8), file: "Empty.storekit")
        XCTAssertEqual(configuration.catalogue.products, [])
        XCTAssertEqual(configuration.version, StoreKitConfiguration.FormatVersion(major: 3, minor: 0))
    }

    // MARK: Refusals

    /// The message the command line prints, whole.
    func testUnsupportedProductTypeNamesFileAndLocation() {
        let json = """
        {"products": [
          {"productID": "coins", "type": "Consumable"},
          {"productID": "family", "type": "Family"}
        ]}
        """
        let error = inputError { try StoreKitConfiguration(json: Array(json.utf8), file: "Shop.storekit") }
        XCTAssertEqual(error?.kind, .invalid)
        XCTAssertEqual(error?.file, "Shop.storekit")
        XCTAssertEqual(error?.location, "$.products[1].type")
        XCTAssertEqual(error?.description, "Shop.storekit: $.products[1].type: unsupported product type 'Family' "
            + "(expected Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription)")
    }

    func testBadPeriodNamesItsLocation() {
        for bad in ["P1X", "1M", "P0M", "P", "", "P1.5M", "p1m", "P1M1W"] {
            let json = """
            {"subscriptionGroups": [{"id": "G", "subscriptions": [
              {"productID": "m", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M"},
              {"productID": "y", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "\(bad)"}
            ]}]}
            """
            let error = inputError { try StoreKitConfiguration(json: Array(json.utf8), file: "Shop.storekit") }
            XCTAssertEqual(error?.location, "$.subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod", bad)
            XCTAssertEqual(error?.reason, "'\(bad)' is not a subscription period "
                + "(expected an ISO 8601 duration such as P3D, P1W, P1M, P6M or P1Y)", bad)
        }
    }

    /// One row per rule: the document, the location named, and words of the reason.
    func testRefusalsNameTheLocation() {
        let subscription = #""type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M""#
        let cases: [(json: String, location: String, reason: String)] = [
            (#"[]"#, "$", "expected an object, found an array"),
            (#"{"settings": {}}"#, "$", "not a StoreKit configuration"),
            (#"{"products": {}}"#, "$.products", "expected an array, found an object"),
            (#"{"products": ["coins"]}"#, "$.products[0]", "expected an object, found a string"),
            (#"{"products": [{"type": "Consumable"}]}"#, "$.products[0].productID", "required field 'productID' is missing"),
            (#"{"products": [{"productID": "", "type": "Consumable"}]}"#, "$.products[0].productID", "must not be empty"),
            (#"{"products": [{"productID": 42, "type": "Consumable"}]}"#, "$.products[0].productID",
             "expected a string, found a number"),
            (#"{"products": [{"productID": "a\u0007", "type": "Consumable"}]}"#, "$.products[0].productID",
             "control character U+0007"),
            (#"{"products": [{"productID": "a"}]}"#, "$.products[0].type", "required field 'type' is missing"),
            (#"{"products": [{"productID": "a", "type": "consumable"}]}"#, "$.products[0].type",
             "unsupported product type 'consumable'"),
            (#"{"products": [{"productID": "a", "type": "RecurringSubscription"}]}"#, "$.products[0].type",
             "a RecurringSubscription product belongs in subscriptionGroups[].subscriptions, not here"),
            (#"{"nonRenewingSubscriptions": [{"productID": "a", "type": "Consumable"}]}"#,
             "$.nonRenewingSubscriptions[0].type", "a Consumable product belongs in products"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", "type": "NonRenewingSubscription"}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].type", "belongs in nonRenewingSubscriptions"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", "type": "RecurringSubscription"}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod", "required field"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", "recurringSubscriptionPeriod": 1, "type": "RecurringSubscription"}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod", "expected a string, found a number"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", \#(subscription), "introductoryOffer": {"paymentMode": "trial", "subscriptionPeriod": "P1W"}}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode",
             "unsupported payment mode 'trial' (expected free, payAsYouGo, payUpFront)"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", \#(subscription), "introductoryOffer": {"paymentMode": "free"}}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod", "required field"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", \#(subscription), "introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P2X"}}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod", "'P2X' is not a subscription period"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", \#(subscription), "introductoryOffer": {"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 0}}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].introductoryOffer.numberOfPeriods",
             "expected an integer from 1 to 999, found 0"),
            (#"{"subscriptionGroups": [{"subscriptions": [{"productID": "a", \#(subscription), "introductoryOffer": "free"}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].introductoryOffer", "expected an object, found a string"),
            (#"{"subscriptionGroups": [{"id": "G1", "subscriptions": [{"productID": "a", \#(subscription), "subscriptionGroupID": "G2"}]}]}"#,
             "$.subscriptionGroups[0].subscriptions[0].subscriptionGroupID",
             "subscriptionGroupID 'G2' differs from the id 'G1' of the group that lists it"),
            (#"{"subscriptionGroups": [{"id": "G1", "subscriptions": {}}]}"#, "$.subscriptionGroups[0].subscriptions",
             "expected an array, found an object"),
            (#"{"products": [], "version": {"major": 0, "minor": 0}}"#, "$.version.major", "expected an integer of at least 1, found 0"),
            (#"{"products": [], "version": {"major": "4"}}"#, "$.version.major", "expected an integer of at least 1, found a string"),
            (#"{"products": [], "version": {"minor": 1}}"#, "$.version.major", "required field 'major' is missing"),
            (#"{"products": [{"productID": "a", "type": "Consumable", "productID": "b"}]}"#, "$.products[0].productID",
             "the field 'productID' appears twice in this object"),
        ]
        for (json, location, reason) in cases {
            let error = inputError { try StoreKitConfiguration(json: Array(json.utf8), file: "Shop.storekit") }
            XCTAssertEqual(error?.kind, .invalid, json)
            XCTAssertEqual(error?.location, location, json)
            XCTAssertTrue(error?.reason.contains(reason) ?? false, "\(json): \(error?.reason ?? "no error") lacks \(reason)")
        }
    }

    /// A product id declared twice, across sections, is refused where it is repeated,
    /// naming where it was first declared.
    func testDuplicateProductIDNamesBothPlaces() {
        let json = """
        {"products": [{"productID": "com.acme.plus", "type": "NonConsumable"}],
         "subscriptionGroups": [{"id": "G", "subscriptions": [
           {"productID": "com.acme.plus", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M"}]}]}
        """
        let error = inputError { try StoreKitConfiguration(json: Array(json.utf8), file: "Shop.storekit") }
        XCTAssertEqual(error?.description, "Shop.storekit: $.subscriptionGroups[0].subscriptions[0].productID: "
            + "product id 'com.acme.plus' is declared twice (first at $.products[0].productID)")
    }

    /// Every strict prefix of a real file is refused cleanly (never a crash, never a
    /// catalogue of what happened to be read so far).
    func testEveryPrefixOfARealFileIsRefused() throws {
        let bytes = try InputFiles.bytes("Tips-v1.storekit")
        let documentLength = bytes.lastIndex(of: UInt8(ascii: "}"))!
        for length in 0...documentLength {
            let error = inputError { try StoreKitConfiguration(json: Array(bytes[..<length]), file: "Tips.storekit") }
            XCTAssertEqual(error?.kind, .malformedJSON, "prefix of \(length) bytes")
        }
        XCTAssertNoThrow(try StoreKitConfiguration(json: bytes, file: "Tips.storekit"))
    }
}
