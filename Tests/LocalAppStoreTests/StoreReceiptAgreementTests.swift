import LocalAppStore
import Receipt
import ReceiptForge
import StoreKit2
import XCTest

/// A receipt minted for a store customer at the store's current instant, through the
/// receipt forge's own API and read back through the `Receipt` module, holds the same
/// transactions as the Server API: ids, products, dates, cancellations.
final class StoreReceiptAgreementTests: XCTestCase {
    private func mintedReceipt(_ store: StoreState, customer: String) throws -> AppReceipt {
        let app = try store.receiptApp(customer: customer)
        let creation = store.now / 1_000
        // ForgeSettings puts the creation date 30 days minus 34 567 s before `now`.
        let settings = ForgeSettings(now: creation + 30 * 86_400 - 34_567)
        XCTAssertEqual(settings.creationDate, creation)
        let minted = try Forge(app: app, settings: settings).mint(.valid)
        let receipt = try PKCS7SignedData(bytes: try XCTUnwrap(minted.receipt)).decodeReceipt()
        XCTAssertEqual(receipt.creationDate?.secondsSince1970, creation)
        return receipt
    }

    /// Returns how many records it compared.
    @discardableResult
    private func assertAgree(_ store: StoreState, customer: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let receipt = try mintedReceipt(store, customer: customer)
        let anyId = String(store.transactions[Int(try XCTUnwrap(store.customers.first { $0.id == customer }).transactions[0])].transactionId)
        var payloads: [JWSTransactionDecodedPayload] = []
        var query = HistoryQuery(version: .v1)
        while true {
            let page = try store.transactionHistory(transactionId: anyId, query: query)
            payloads += page.transactions
            guard page.hasMore else { break }
            query.revision = page.revision
        }
        let records = receipt.inAppPurchases
        XCTAssertEqual(records.count, payloads.count, "\(customer): receipt and history v1 list as many", file: file, line: line)
        func seconds(_ date: JWSDate?) -> Int64? { date.map { Int64($0.milliseconds) / 1_000 } }
        // A receipt's SET of in-app records is in DER order, not purchase order: match by id.
        let byId = Dictionary(uniqueKeysWithValues: records.map { ($0.transactionIdentifier ?? "", $0) })
        XCTAssertEqual(Set(byId.keys), Set(payloads.compactMap(\.transactionId)), customer, file: file, line: line)
        for payload in payloads {
            guard let record = byId[payload.transactionId ?? ""] else { continue }
            let context = "\(customer) \(payload.transactionId ?? "?")"
            XCTAssertEqual(record.transactionIdentifier, payload.transactionId, context, file: file, line: line)
            XCTAssertEqual(record.originalTransactionIdentifier, payload.originalTransactionId, context, file: file, line: line)
            XCTAssertEqual(record.productIdentifier, payload.productId, context, file: file, line: line)
            XCTAssertEqual(record.quantity, payload.quantity.map(Int64.init), context, file: file, line: line)
            XCTAssertEqual(record.purchaseDate?.secondsSince1970, seconds(payload.purchaseDate), context, file: file, line: line)
            XCTAssertEqual(record.originalPurchaseDate?.secondsSince1970, seconds(payload.originalPurchaseDate), context, file: file, line: line)
            XCTAssertEqual(record.subscriptionExpirationDate?.secondsSince1970, seconds(payload.expiresDate), context, file: file, line: line)
            XCTAssertEqual(record.cancellationDate?.secondsSince1970, seconds(payload.revocationDate), context, file: file, line: line)
            if let webOrder = payload.webOrderLineItemId {
                XCTAssertEqual(record.webOrderLineItemID.map(String.init), webOrder, context, file: file, line: line)
            }
            XCTAssertEqual(record.isTrialPeriod, payload.offerDiscountType == "FREE_TRIAL" && payload.offerType == 1, context, file: file, line: line)
        }
        return records.count
    }

    func testEveryKindOfDefaultCustomerAgrees() throws {
        let store = StoreState()
        var compared = 0
        for number in 0..<store.customers.count {
            compared += try assertAgree(store, customer: StoreState.customerId(number))
        }
        XCTAssertGreaterThan(compared, store.customers.count)
    }

    func testAgreementHoldsAfterActions() throws {
        var store = emptyStore()
        let bought = try store.buyProduct(customer: "alice", productId: weekly, offer: .introductory)
        try store.buyProduct(customer: "alice", productId: coins, quantity: 2)
        let finished = try store.buyProduct(customer: "alice", productId: coins).transactionIds[0]
        try store.finishTransaction(transactionId: finished)
        try store.buyProduct(customer: "alice", productId: pro)
        try store.advance(by: 20 * StoreDuration.day + 1_234)
        try store.refundTransaction(transactionId: bought.transactionIds[0], reason: .refundedDueToIssue)
        XCTAssertEqual(try assertAgree(store, customer: "alice"), 5, "a weekly trial renewed twice, the unfinished consumable, the non-consumable")
        XCTAssertFalse(try mintedReceipt(store, customer: "alice").inAppPurchases.contains { $0.transactionIdentifier == finished },
                       "a finished consumable leaves the receipt")
    }
}
