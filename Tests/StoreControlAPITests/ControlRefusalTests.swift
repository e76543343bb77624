import LocalAppStore
import StoreControlAPI
import StrictJSON
import TestSupport
import XCTest

/// Every kind of bad request: a 400 naming the field (a JSONPath for a body that does
/// not decode, the store's field for a refusal by the store) with both stores' state
/// unchanged; 404 for paths that name no verb; 405 for the wrong method.
final class ControlRefusalTests: XCTestCase {
    func testBodiesThatDoNotDecodeNameTheirJSONPath() throws { try Self.bodiesThatDoNotDecodeNameTheirJSONPath(ControlHarness()) }
    func testUnknownCustomersProductsAndTransactionsNameTheField() throws { try Self.unknownCustomersProductsAndTransactionsNameTheField(ControlHarness()) }
    func testActionsInTheWrongStateAreRefusedWhole() throws { try Self.actionsInTheWrongStateAreRefusedWhole(ControlHarness()) }
    func testUnknownVerbsAndPathsAre404() throws { try Self.unknownVerbsAndPathsAre404(ControlHarness()) }
    func testTheWrongMethodIs405WithAllow() throws { try Self.theWrongMethodIs405WithAllow(ControlHarness()) }

    /// The scenarios above, each on a harness of its own (`ControlSchemaTests` records them).
    static var scenarios: [(ControlHarness) throws -> Void] {
        [
            bodiesThatDoNotDecodeNameTheirJSONPath,
            unknownCustomersProductsAndTransactionsNameTheField,
            actionsInTheWrongStateAreRefusedWhole,
            unknownVerbsAndPathsAre404,
            theWrongMethodIs405WithAllow,
        ]
    }

    static func bodiesThatDoNotDecodeNameTheirJSONPath(_ harness: ControlHarness) throws {
        let buy = "buyProduct"
        try harness.refused(buy, #"{"customer": "#, code: "malformedJSON", field: "$")
        try harness.refused(buy, #"{"customer": "a", "productId": "x",}"#, code: "malformedJSON", field: "$")
        try harness.refused(buy, "[]", code: "invalidRequest", field: "$")
        try harness.refused(buy, #"{"customer": 5, "productId": "\#(coins)"}"#, code: "invalidRequest", field: "$.customer")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(coins)", "quantity": "2"}"#, code: "invalidRequest", field: "$.quantity")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(coins)", "quantity": 1.5}"#, code: "invalidRequest", field: "$.quantity")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(coins)", "quantity": null}"#, code: "invalidRequest", field: "$.quantity")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(pro)", "familyShared": ["b", 3]}"#, code: "invalidRequest",
                            field: "$.familyShared[1]")
        try harness.refused(buy, #"{"productId": "\#(coins)"}"#, code: "invalidRequest", field: "$.customer")
        try harness.refused(buy, "", code: "invalidRequest", field: "$.customer")
        let unknown = try harness.refused(buy, #"{"customer": "a", "productId": "\#(coins)", "quantty": 2}"#, code: "invalidRequest",
                                          field: "$.quantty")
        XCTAssertTrue(unknown.error.message.contains("did you mean 'quantity'?"), unknown.error.message)
        try harness.refused(buy, #"{"customer": "a", "customer": "b", "productId": "\#(coins)"}"#, code: "invalidRequest", field: "$.customer")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(coins)", "storefront": "FRA"}"#, code: "invalidRequest",
                            field: "$.storefront")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(weekly)", "offer": {"type": "introductory", "kind": 1}}"#,
                            code: "invalidRequest", field: "$.offer.kind")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(weekly)", "offer": {"type": "introductory", "id": "x"}}"#,
                            code: "invalidRequest", field: "$.offer.id")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(weekly)", "offer": {"type": "promotional", "id": "x"}}"#,
                            code: "invalidRequest", field: "$.offer.discountType")
        try harness.refused(buy, #"{"customer": "a", "productId": "\#(weekly)", "offer": {"type": "coupon"}}"#,
                            code: "invalidRequest", field: "$.offer.type")

        try harness.refused("failRenewal", #"{"originalTransactionId": "1"}"#, code: "invalidRequest", field: "$.gracePeriod")
        try harness.refused("failRenewal", #"{"originalTransactionId": "1", "gracePeriod": 1}"#, code: "invalidRequest", field: "$.gracePeriod")
        try harness.refused("failRenewal", #"{"originalTransactionId": "1", "gracePeriod": true, "when": "later"}"#,
                            code: "invalidRequest", field: "$.when")
        try harness.refused("expireSubscription", #"{"originalTransactionId": "1", "reason": "bored"}"#,
                            code: "invalidRequest", field: "$.reason")
        try harness.refused("refundTransaction", #"{"transactionId": "1", "reason": 2}"#, code: "invalidRequest", field: "$.reason")
        try harness.refused("refundTransaction", #"{"transactionId": 1000000000000001, "reason": 0}"#, code: "invalidRequest",
                            field: "$.transactionId")
        try harness.refused("requestConsumptionInformation", #"{"transactionId": "1", "reason": "BORED"}"#, code: "invalidRequest",
                            field: "$.reason")
        try harness.refused("priceIncrease", #"{"originalTransactionId": "1", "renewalPrice": 99999999999999999999}"#,
                            code: "invalidRequest", field: "$.renewalPrice")
        try harness.refused("advanceClock", "{}", code: "invalidRequest", field: "$")
        try harness.refused("advanceClock", #"{"seconds": 1, "milliseconds": 1}"#, code: "invalidRequest", field: "$.milliseconds")
        try harness.refused("resetToDefaultState", #"{"everything": true}"#, code: "invalidRequest", field: "$.everything")
        try harness.refused("clearTransactions", #"{"customers": ["a"]}"#, code: "invalidRequest", field: "$.customers")
        try harness.refused("state", #"{"x": 1}"#, method: "GET", code: "invalidRequest", field: "$.x")
    }

    static func unknownCustomersProductsAndTransactionsNameTheField(_ harness: ControlHarness) throws {
        let original = try harness.subscribe("alice")
        try harness.refused("buyProduct", #"{"customer": "a", "productId": "com.example.nothing"}"#, code: "productNotFound", field: "productId")
        try harness.refused("buyProduct", #"{"customer": "a b", "productId": "\#(coins)"}"#, code: "invalidValue", field: "customer")
        try harness.refused("buyProduct", #"{"customer": "a", "productId": "\#(coins)", "quantity": 11}"#, code: "invalidValue", field: "quantity")
        try harness.refused("buyProduct", #"{"customer": "a", "productId": "\#(coins)", "appAccountToken": "nope"}"#,
                            code: "invalidAppAccountToken", field: "appAccountToken")
        try harness.refused("buyProduct", #"{"customer": "a", "productId": "\#(coins)", "familyShared": ["b"]}"#,
                            code: "familyTransactionNotSupported", field: "familyShared")
        try harness.refused("clearTransactions", #"{"customer": "nobody"}"#, code: "customerNotFound", field: "customer")
        try harness.refused("refundTransaction", #"{"transactionId": "1000000000000001", "reason": 0}"#, code: "transactionNotFound",
                            field: "transactionId")
        try harness.refused("revokeTransaction", #"{"transactionId": "12ab"}"#, code: "invalidTransactionId", field: "transactionId")
        try harness.refused("expireSubscription", #"{"originalTransactionId": "1000000000000001"}"#, code: "originalTransactionNotFound",
                            field: "originalTransactionId")
        try harness.refused("changeRenewalProduct", #"{"originalTransactionId": "\#(original)", "productId": "\#(coins)"}"#,
                            code: "invalidValue", field: "productId")
        try harness.refused("priceIncrease", #"{"originalTransactionId": "\#(original)", "renewalPrice": 1}"#, code: "invalidValue",
                            field: "renewalPrice")
    }

    static func actionsInTheWrongStateAreRefusedWhole(_ harness: ControlHarness) throws {
        let original = try harness.subscribe("alice")
        let body = #"{"originalTransactionId": "\#(original)"}"#
        try harness.refused("buyProduct", #"{"customer": "alice", "productId": "\#(yearly)"}"#, code: "invalidState", field: "productId")
        try harness.refused("acceptPriceIncrease", body, code: "invalidState", field: "originalTransactionId")
        try harness.refused("recoverBilling", body, code: "invalidState", field: "originalTransactionId")
        try harness.refused("enableAutoRenewForTransaction", body, code: "invalidState", field: "originalTransactionId")
        try harness.ok("expireSubscription", body)
        try harness.refused("forceRenewalOfSubscription", body, code: "invalidState", field: "originalTransactionId")
        try harness.refused("failRenewal", #"{"originalTransactionId": "\#(original)", "gracePeriod": false}"#, code: "invalidState",
                            field: "originalTransactionId")

        let consumable = try harness.ok("buyProduct", #"{"customer": "bob", "productId": "\#(coins)"}"#).transactionIds[0]
        try harness.refused("reverseRefund", #"{"transactionId": "\#(consumable)"}"#, code: "invalidState", field: "transactionId")
        try harness.refused("refundTransaction", #"{"transactionId": "\#(consumable)", "reason": 0, "percentage": 100000}"#,
                            code: "invalidValue", field: "percentage")
        try harness.refused("refundTransaction", #"{"transactionId": "\#(consumable)", "reason": 0, "percentage": null}"#,
                            code: "invalidRequest", field: "$.percentage")
        try harness.ok("refundTransaction", #"{"transactionId": "\#(consumable)", "reason": 0}"#)
        try harness.refused("refundTransaction", #"{"transactionId": "\#(consumable)", "reason": 0}"#, code: "invalidState",
                            field: "transactionId")
        try harness.refused("declineRefund", #"{"transactionId": "\#(consumable)"}"#, code: "invalidState", field: "transactionId")

        let now = harness.production.read { $0.now }
        try harness.refused("advanceClock", #"{"seconds": -1}"#, code: "clockMovesForward", field: "seconds")
        try harness.refused("advanceClock", #"{"milliseconds": -1}"#, code: "clockMovesForward", field: "milliseconds")
        try harness.refused("advanceClock", #"{"to": \#(now - 1)}"#, code: "clockMovesForward", field: "to")
        try harness.refused("advanceClock", #"{"seconds": 9223372036854775807}"#, code: "invalidValue", field: "seconds")
        // A move to the end of time would renew subscriptions without end under the store's lock: a move is at most ten years.
        try harness.refused("advanceClock", #"{"to": 9223372036854775807}"#, code: "invalidValue", field: "to")
        try harness.refused("advanceClock", #"{"milliseconds": \#(StoreState.maximumClockMove + 1)}"#, code: "invalidValue", field: "milliseconds")
        try harness.ok("advanceClock", #"{"milliseconds": \#(StoreState.maximumClockMove)}"#)
        // Past the notAfter of the certificates the store signs with, Apple's verifier would refuse every JWS it signs.
        while harness.production.read({ StoreState.signingCertificateNotAfter - $0.now }) > StoreState.maximumClockMove {
            try harness.ok("advanceClock", #"{"milliseconds": \#(StoreState.maximumClockMove)}"#)
        }
        let late = try harness.refused("advanceClock", #"{"to": \#(StoreState.signingCertificateNotAfter + 1_000)}"#,
                                       code: "pastSigningCertificate", field: "to")
        XCTAssertTrue(late.error.message.contains("2099-12-31T23:59:59Z"), late.error.message)
        try harness.ok("advanceClock", #"{"to": \#(StoreState.signingCertificateNotAfter)}"#)
    }

    static func unknownVerbsAndPathsAre404(_ harness: ControlHarness) throws {
        for verb in ["buyProducts", "", "state/extra", "BuyProduct"] {
            let answer = try harness.refused(verb, "{}", status: 404, code: "unknownVerb", field: "path")
            XCTAssertEqual(answer.error.verbs, ControlVerb.allCases.map(\.rawValue))
        }
        for path in ["/forge/v2/buyProduct", "/forge/v1", "/sandbox/forge/buyProduct", "/"] {
            let response = harness.send("POST", path, "{}")
            XCTAssertEqual(response.status, 404, path)
            XCTAssertEqual(try decodeJSON(ErrorAnswer.self, from: response.body).error.code, "notFound", path)
        }
    }

    static func theWrongMethodIs405WithAllow(_ harness: ControlHarness) throws {
        for verb in ControlVerb.allCases {
            for method in ["GET", "POST", "PUT", "DELETE"] where method != verb.method {
                try harness.refused(verb.rawValue, "", method: method, status: 405, code: "methodNotAllowed", field: "method")
                let response = harness.send(method, ControlPath.prefixes.production + verb.rawValue, "")
                XCTAssertEqual(response.header("Allow"), verb.method)
            }
        }
    }
}
