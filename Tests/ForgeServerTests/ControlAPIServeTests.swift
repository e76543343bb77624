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
        }
    }
}
