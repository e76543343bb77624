import LocalAppStore
import StoreKit2
import XCTest

/// Get Transaction History's filters, sort and 20-per-page revisions.
final class StoreHistoryTests: XCTestCase {
    /// 45 transactions for one customer: 15 consumables, a non-consumable, a monthly
    /// subscription renewed 28 times (29 transactions).
    private func customerWith45Transactions() throws -> (StoreState, String) {
        var store = emptyStore()
        var first = ""
        for index in 0..<15 {
            let bought = try store.buyProduct(customer: "alice", productId: coins, quantity: 1 + index % 3)
            if index == 0 { first = bought.transactionIds[0] }
            try store.advance(by: StoreDuration.hour)
        }
        try store.buyProduct(customer: "alice", productId: pro)
        try store.buyProduct(customer: "alice", productId: monthly)
        try store.advance(by: 28 * 30 * StoreDuration.day + StoreDuration.hour)
        XCTAssertEqual(store.customers.first { $0.id == "alice" }?.transactions.count, 45)
        return (store, first)
    }

    func test45TransactionsInThreePages() throws {
        let (store, anyId) = try customerWith45Transactions()
        var query = HistoryQuery()
        var seen: [String] = []
        var pages: [TransactionPage] = []
        repeat {
            let page = try store.transactionHistory(transactionId: anyId, query: query)
            pages.append(page)
            seen += page.transactions.compactMap(\.transactionId)
            query.revision = page.revision
        } while pages.last!.hasMore && pages.count < 10
        XCTAssertEqual(pages.map(\.transactions.count), [20, 20, 5])
        XCTAssertEqual(pages.map(\.hasMore), [true, true, false])
        XCTAssertEqual(Set(seen).count, 45)
        let dates = pages.flatMap(\.transactions).compactMap(\.purchaseDate)
        XCTAssertEqual(dates, dates.sorted())

        var descending = HistoryQuery(sort: .descending)
        let firstDescending = try store.transactionHistory(transactionId: anyId, query: descending)
        XCTAssertEqual(firstDescending.transactions.first?.transactionId, seen.last)
        descending.revision = firstDescending.revision
        XCTAssertEqual(try store.transactionHistory(transactionId: anyId, query: descending).transactions.count, 20)
    }

    func testARevisionKeepsWorkingWhenTransactionsArrive() throws {
        var (store, anyId) = try customerWith45Transactions()
        let firstPage = try store.transactionHistory(transactionId: anyId)
        let secondBefore = try store.transactionHistory(transactionId: anyId, query: HistoryQuery(revision: firstPage.revision))
        try store.buyProduct(customer: "alice", productId: coins)
        try store.refundTransaction(transactionId: anyId, reason: .refundedForOtherReason)
        let secondAfter = try store.transactionHistory(transactionId: anyId, query: HistoryQuery(revision: firstPage.revision))
        XCTAssertEqual(secondAfter.transactions.map(\.transactionId), secondBefore.transactions.map(\.transactionId))
        var query = HistoryQuery(revision: secondAfter.revision)
        let third = try store.transactionHistory(transactionId: anyId, query: query)
        XCTAssertEqual(third.transactions.count, 6, "the new purchase comes last")
        query.revision = "not-a-revision"
        XCTAssertThrowsError(try store.transactionHistory(transactionId: anyId, query: query)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .invalidRevision)
            XCTAssertEqual((error as? StoreError)?.field, "revision")
        }
    }

    func testFilters() throws {
        var (store, anyId) = try customerWith45Transactions()
        func count(_ query: HistoryQuery) throws -> Int {
            var query = query
            var total = 0
            while true {
                let page = try store.transactionHistory(transactionId: anyId, query: query)
                total += page.transactions.count
                guard page.hasMore else { return total }
                query.revision = page.revision
            }
        }
        XCTAssertEqual(try count(HistoryQuery(productTypes: [.consumable])), 15)
        XCTAssertEqual(try count(HistoryQuery(productTypes: [.consumable, .nonConsumable])), 16, "values of one filter are OR'd")
        XCTAssertEqual(try count(HistoryQuery(productIds: [monthly])), 29)
        XCTAssertEqual(try count(HistoryQuery(productIds: [monthly], productTypes: [.consumable])), 0, "filters are AND'd")
        XCTAssertEqual(try count(HistoryQuery(subscriptionGroupIdentifiers: ["21000001"])), 29)
        XCTAssertEqual(try count(HistoryQuery(subscriptionGroupIdentifiers: ["21000002"])), 0)
        let start = try XCTUnwrap(try store.transactionInfo(transactionId: anyId).purchaseDate).milliseconds
        XCTAssertEqual(try count(HistoryQuery(startDate: Int64(start), endDate: Int64(start) + 5 * StoreDuration.hour)), 5)
        XCTAssertThrowsError(try store.transactionHistory(transactionId: anyId, query: HistoryQuery(startDate: 10, endDate: 5))) { error in
            XCTAssertEqual((error as? StoreError)?.code, .startDateAfterEndDate)
        }
        try store.refundTransaction(transactionId: anyId, reason: .refundedDueToIssue)
        XCTAssertEqual(try count(HistoryQuery(revoked: true)), 1)
        XCTAssertEqual(try count(HistoryQuery(revoked: false)), 44)
        XCTAssertEqual(try count(HistoryQuery(inAppOwnershipType: .familyShared)), 0)
        XCTAssertEqual(try count(HistoryQuery(inAppOwnershipType: .purchased)), 45)
        let second = try XCTUnwrap(store.customers.first { $0.id == "alice" }).transactions[1]
        try store.finishTransaction(transactionId: String(store.transactions[Int(second)].transactionId))
        XCTAssertEqual(try count(HistoryQuery(version: .v1)), 44, "v1 leaves out the finished consumable")
        XCTAssertEqual(try count(HistoryQuery(version: .v2)), 45)
    }
}
