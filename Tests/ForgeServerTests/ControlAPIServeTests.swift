import ForgeServer
import Foundation
import StoreKit2
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// The control API over HTTP drives the stores the App Store Server API reads: a test
/// buys and refunds through `/sandbox/forge/v1/…` and sees each change through
/// `/sandbox/inApps/…` of the same server.
final class ControlAPIServeTests: XCTestCase {
    func testBuyAndRefundShowThroughTheServerAPI() async throws {
        var options = ServeOptions()
        options.serverAPIAuthentication = .disabled
        try await ServerHarness.with(options) { server in
            let product = "com.example.receiptforge.pro"
            let bought = try await server.send("/sandbox/forge/v1/buyProduct",
                                               body: Array(#"{"customer":"customer-000001","productId":"\#(product)"}"#.utf8))
            XCTAssertEqual(bought.http, 200, bought.text)
            XCTAssertEqual(bought.header("Content-Type"), "application/json")
            let id = try XCTUnwrap(try bought.json()["transactionIds"]?.arrayValue?.first?.stringValue, bought.text)

            let info = try await server.send("/sandbox/inApps/v1/transactions/\(id)", method: "GET")
            XCTAssertEqual(info.http, 200, info.text)
            let signed = try XCTUnwrap(try info.json()["signedTransactionInfo"]?.stringValue)
            let transaction = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self, from: try CompactJWS(signed).payload,
                                                       at: "payload")
            XCTAssertEqual(transaction.transactionId, id)
            XCTAssertEqual(transaction.productId, product)
            XCTAssertEqual(transaction.environment, "Sandbox")
            XCTAssertNil(transaction.revocationDate)

            // Production is another store: the sandbox purchase is not there.
            let elsewhere = try await server.send("/inApps/v1/transactions/\(id)", method: "GET")
            XCTAssertEqual(elsewhere.http, 404, elsewhere.text)

            let refunded = try await server.send("/sandbox/forge/v1/refundTransaction",
                                                 body: Array(#"{"transactionId":"\#(id)","reason":0}"#.utf8))
            XCTAssertEqual(refunded.http, 200, refunded.text)
            let again = try await server.send("/sandbox/inApps/v1/transactions/\(id)", method: "GET")
            let revoked = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self,
                                                   from: try CompactJWS(try XCTUnwrap(try again.json()["signedTransactionInfo"]?.stringValue)).payload,
                                                   at: "payload")
            XCTAssertNotNil(revoked.revocationDate, "the refund shows in the transaction")

            // A bad request names the field and changes nothing.
            let before = try await server.send("/sandbox/forge/v1/state", method: "GET")
            XCTAssertEqual(before.http, 200)
            let bad = try await server.send("/sandbox/forge/v1/buyProduct",
                                            body: Array(#"{"customer":"customer-000001","productId":"no.such.product"}"#.utf8))
            XCTAssertEqual(bad.http, 400, bad.text)
            XCTAssertEqual(try bad.json()["error"]?["field"]?.stringValue, "productId", bad.text)
            let after = try await server.send("/sandbox/forge/v1/state", method: "GET")
            XCTAssertEqual(after.body, before.body)

            // The state's query reaches the handler through the server: one customer, or a refusal naming the parameter.
            let narrowed = try await server.send("/sandbox/forge/v1/state?customer=customer-000001&eventsLimit=1", method: "GET")
            XCTAssertEqual(narrowed.http, 200, narrowed.text)
            XCTAssertEqual(try narrowed.json()["customers"]?.arrayValue?.compactMap { $0["customerId"]?.stringValue }, ["customer-000001"])
            XCTAssertEqual(try narrowed.json()["events"]?.arrayValue?.count, 1)
            XCTAssertEqual(try narrowed.json()["nextEventsFrom"]?.intValue, 2, "the refund's event is the next page")
            let misspelt = try await server.send("/sandbox/forge/v1/state?customers=customer-000001", method: "GET")
            XCTAssertEqual(misspelt.http, 400, misspelt.text)
            XCTAssertEqual(try misspelt.json()["error"]?["field"]?.stringValue, "query", misspelt.text)
        }
    }

    /// A test script's whole loop over HTTP: buy, renew, fail, recover, refund and revoke
    /// through the control API; then the Server API's history, the receipt the control API
    /// mints for the customer, and verifyReceipt's answer for that receipt on the same
    /// server all list the same transactions with the same cancellations.
    func testALifecycleShowsTheSameInTheServerAPIAndInTheReceipt() async throws {
        var options = ServeOptions()
        options.serverAPIAuthentication = .disabled
        try await ServerHarness.with(options) { server in
            func control(_ verb: String, _ body: String) async throws -> JSONValue {
                let reply = try await server.send("/sandbox/forge/v1/\(verb)", body: Array(body.utf8))
                XCTAssertEqual(reply.http, 200, "\(verb): \(reply.text)")
                return try reply.json()
            }
            let monthly = "com.example.receiptforge.subscription.monthly"
            let first = try await control("buyProduct", #"{"customer":"dana","productId":"\#(monthly)"}"#)
            let original = try XCTUnwrap(first["originalTransactionId"]?.stringValue)
            let renewal = try await control("forceRenewalOfSubscription", #"{"originalTransactionId":"\#(original)"}"#)
            let renewed = try XCTUnwrap(renewal["transactionIds"]?.arrayValue?.first?.stringValue, "a renewal creates a transaction")
            _ = try await control("failRenewal", #"{"originalTransactionId":"\#(original)","gracePeriod":true}"#)
            _ = try await control("recoverBilling", #"{"originalTransactionId":"\#(original)"}"#)
            let pro = try await control("buyProduct", #"{"customer":"dana","productId":"com.example.receiptforge.pro"}"#)
            let proId = try XCTUnwrap(pro["transactionIds"]?.arrayValue?.first?.stringValue)
            let season = try await control("buyProduct", #"{"customer":"dana","productId":"com.example.receiptforge.season"}"#)
            let seasonId = try XCTUnwrap(season["transactionIds"]?.arrayValue?.first?.stringValue)
            _ = try await control("advanceClock", #"{"seconds":600}"#)
            _ = try await control("refundTransaction", #"{"transactionId":"\#(renewed)","reason":1}"#)
            _ = try await control("revokeTransaction", #"{"transactionId":"\#(proId)"}"#)

            // The Server API: every transaction of dana's, with its revocation date (ms).
            var revocations: [String: Int64?] = [:]
            var revision: String?
            repeat {
                let query = revision.map { "?revision=\($0)" } ?? ""
                let page = try await server.send("/sandbox/inApps/v2/history/\(original)\(query)", method: "GET")
                XCTAssertEqual(page.http, 200, page.text)
                let body = try page.json()
                for signed in body["signedTransactions"]?.arrayValue ?? [] {
                    let payload = try StoreKit2JSON.decode(JWSTransactionDecodedPayload.self,
                                                           from: try CompactJWS(try XCTUnwrap(signed.stringValue)).payload, at: "payload")
                    revocations.updateValue(payload.revocationDate.map { Int64($0.milliseconds) }, forKey: try XCTUnwrap(payload.transactionId))
                }
                revision = body["hasMore"]?.boolValue == true ? body["revision"]?.stringValue : nil
            } while revision != nil
            XCTAssertTrue(Set(revocations.keys).isSuperset(of: [original, renewed, proId, seasonId]), "\(revocations.keys)")
            XCTAssertNotNil(revocations[renewed] ?? nil, "the refunded renewal is revoked")
            XCTAssertNotNil(revocations[proId] ?? nil, "the revoked purchase is revoked")
            XCTAssertNil(revocations[seasonId] ?? nil)

            // The receipt the control API mints for dana, as verifyReceipt reads it.
            let minted = try await control("receipt", #"{"customer":"dana"}"#)
            let receipt = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(minted["receiptData"]?.stringValue)))
            let verified = try await server.verify(Array(receipt), at: .sandbox)
            XCTAssertEqual(verified.http, 200, verified.text)
            let answer = try verified.json()
            XCTAssertEqual(answer["status"]?.intValue, 0, verified.text)
            XCTAssertEqual(answer["environment"]?.stringValue, "Sandbox")
            var cancellations: [String: Int64?] = [:]
            for record in answer["receipt"]?["in_app"]?.arrayValue ?? [] {
                let id = try XCTUnwrap(record["transaction_id"]?.stringValue)
                cancellations.updateValue(record["cancellation_date_ms"]?.stringValue.flatMap { Int64($0) }, forKey: id)
            }
            XCTAssertEqual(Set(cancellations.keys), Set(revocations.keys), "the receipt and the Server API list the same transactions")
            for (id, revoked) in revocations {
                // Receipts have whole seconds.
                XCTAssertEqual(cancellations[id] ?? nil, revoked.map { $0 / 1_000 * 1_000 }, "cancellation of \(id)")
            }
        }
    }
}
