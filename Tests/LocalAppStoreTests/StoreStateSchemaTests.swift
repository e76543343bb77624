import LocalAppStore
import StrictJSON
import TestSupport
import XCTest

/// `Schemas/store-state.schema.json` against real states, judged by Python's
/// `jsonschema` as the fixture schemas are, and the values it enumerates are the code's.
final class StoreStateSchemaTests: XCTestCase {
    /// The default store, and one after every kind of action, so every optional field is written.
    private func states() throws -> [(label: String, json: String)] {
        var busy = StoreState()
        let original = try XCTUnwrap(try busy.buyProduct(customer: "zoe", productId: weekly, offer: .introductory,
                                                         appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
                                                         familyShared: ["yann"]).originalTransactionId)
        try busy.buyProduct(customer: "zoe", productId: "com.example.receiptforge.monthly",
                            offer: .promotional(id: "spring", discount: .payUpFront))
        let consumable = try busy.buyProduct(customer: "zoe", productId: coins, quantity: 2).transactionIds[0]
        try busy.requestConsumptionInformation(transactionId: consumable, reason: .fulfillmentIssue)
        try busy.sendConsumptionInformation(transactionId: consumable, ConsumptionInformation(
            customerConsented: true, sampleContentProvided: true, deliveryStatus: .undeliveredOther, consumptionPercentage: 0,
            refundPreference: .grantFull))
        try busy.finishTransaction(transactionId: consumable)
        try busy.advance(by: 8 * StoreDuration.day)
        try busy.priceIncrease(originalTransactionId: original, renewalPrice: 2_990, requiresConsent: false)
        try busy.changeRenewalProduct(originalTransactionId: original, productId: monthly)
        try busy.failRenewal(originalTransactionId: original, gracePeriod: true, when: .atNextRenewal)
        try busy.extendRenewalDatesForAllActiveSubscribers(productId: monthly, days: 2, reason: .serviceIssueOrOutage,
                                                           requestIdentifier: "outage", storefrontCountryCodes: ["USA", "CAN"])
        try busy.refundTransaction(transactionId: consumable, reason: .refundedDueToIssue)
        try busy.advance(by: 40 * StoreDuration.day)
        return [("default", String(decoding: StoreState().stateJSON(), as: UTF8.self)),
                ("busy", String(decoding: busy.stateJSON(), as: UTF8.self)),
                ("sandbox, 200 customers", String(decoding: StoreState(StoreConfiguration(environment: .sandbox, customers: 200)).stateJSON(),
                                                  as: UTF8.self))]
    }

    func testStatesMatchTheSchema() throws {
        let documents = try states()
        let errors = try JSONSchemaOracle.errors(in: documents.map(\.json), schema: JSONSchemaOracle.schemaURL("store-state"))
        for (document, problems) in zip(documents, errors) {
            XCTAssertEqual(problems, [], "store-state.schema.json refuses the \(document.label) state")
        }
    }

    func testTheSchemaIsNotVacuous() throws {
        let valid = try XCTUnwrap(try states().first?.json)
        let breaks = [
            ("an unknown top-level field", valid.replacingOccurrences(of: #"{"appAppleId""#, with: #"{"extra":1,"appAppleId""#)),
            ("status 6", valid.replacingOccurrences(of: #""status":1"#, with: #""status":6"#)),
            ("a numeric transaction id", valid.replacingOccurrences(of: #""transactionId":""#, with: #""transactionId":1,"x":""#)),
        ]
        for (label, document) in breaks { XCTAssertNotEqual(document, valid, label) }
        let errors = try JSONSchemaOracle.errors(in: breaks.map(\.1), schema: JSONSchemaOracle.schemaURL("store-state"))
        for ((label, _), problems) in zip(breaks, errors) {
            XCTAssertFalse(problems.isEmpty, "the schema accepts \(label)")
        }
    }

    func testEnumeratedValuesAreTheCodes() throws {
        let schema = try JSONValue(json: String(contentsOf: JSONSchemaOracle.schemaURL("store-state"), encoding: .utf8))
        func values(_ name: String) throws -> [JSONValue] {
            try XCTUnwrap(schema["$defs"]?[name]?["enum"]?.arrayValue, name)
        }
        XCTAssertEqual(try values("status").compactMap(\.intValue), SubscriptionStatus.allCases.map(\.rawValue))
        XCTAssertEqual(try values("expirationIntent").compactMap(\.intValue), ExpirationIntent.allCases.map(\.rawValue))
        XCTAssertEqual(try values("offerDiscountType").compactMap(\.stringValue), OfferDiscountType.allCases.map(\.rawValue))
        XCTAssertEqual(try values("consumptionRequestReason").compactMap(\.stringValue), ConsumptionRequestReason.allCases.map(\.rawValue))
        XCTAssertEqual(try values("deliveryStatus").compactMap(\.stringValue), DeliveryStatus.allCases.map(\.rawValue))
        XCTAssertEqual(try values("refundPreference").compactMap(\.stringValue), RefundPreference.allCases.map(\.rawValue))
        XCTAssertEqual(try values("storefront").compactMap(\.stringValue), Storefront.allCases.map(\.rawValue))
        let events = try XCTUnwrap(schema["$defs"]?["event"]?["properties"]?["change"]?["enum"]?.arrayValue)
        XCTAssertEqual(events.compactMap(\.stringValue), StoreEvent.RenewalChange.allCases.map(\.rawValue))
    }
}
