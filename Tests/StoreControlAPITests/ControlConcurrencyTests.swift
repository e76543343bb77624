import Foundation
import LocalAppStore
import StoreControlAPI
import StrictJSON
import TestSupport
import XCTest

/// Tasks driving different customers through one handler at once, while others read
/// the state: every answer's ids are in the final state, nothing is lost or doubled,
/// and every state read is a whole state.
final class ControlConcurrencyTests: XCTestCase {
    func testConcurrentCustomersLoseNoUpdate() async throws {
        let harness = ControlHarness()
        let customers = 8
        let rounds = 10
        let answers = try await withThrowingTaskGroup(of: [String: [String]].self) { group in
            for customer in 0..<customers {
                group.addTask {
                    let name = "customer-\(customer)"
                    var created: [String] = []
                    let original = try harness.subscribe(name)
                    created.append(original)
                    for round in 0..<rounds {
                        let bought = try harness.ok("buyProduct", #"{"customer": "\#(name)", "productId": "\#(coins)", "quantity": \#(1 + round % 3)}"#)
                        created += bought.transactionIds
                        created += try harness.ok("forceRenewalOfSubscription", #"{"originalTransactionId": "\#(original)"}"#).transactionIds
                        try harness.ok("refundTransaction", #"{"transactionId": "\#(bought.transactionIds[0])", "reason": 0}"#)
                    }
                    return [name: created]
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<20 {
                        let response = harness.send("GET", "/forge/v1/state")
                        XCTAssertEqual(response.status, 200)
                        let state = try JSONValue(json: Data(response.body))
                        let transactions = state["transactions"]?.arrayValue ?? []
                        // A whole state: every transaction's customer is listed, every subscription's latest transaction exists.
                        let customerIds = Set(state["customers"]?.arrayValue?.compactMap { $0["customerId"]?.stringValue } ?? [])
                        XCTAssertTrue(transactions.allSatisfy { customerIds.contains($0["customerId"]?.stringValue ?? "") })
                        let ids = Set(transactions.compactMap { $0["transactionId"]?.stringValue })
                        for subscription in state["subscriptions"]?.arrayValue ?? [] {
                            XCTAssertTrue(ids.contains(subscription["latestTransactionId"]?.stringValue ?? ""))
                        }
                    }
                    return [:]
                }
            }
            return try await group.reduce(into: [:]) { $0.merge($1) { $1 } }
        }
        let final = harness.production.snapshot()
        XCTAssertEqual(final.transactions.count, customers * (1 + 2 * rounds))
        for (name, created) in answers {
            let held = final.transactions.filter { final.customer(of: $0).id == name }.map { String($0.transactionId) }
            XCTAssertEqual(held, created, "\(name)'s transactions are exactly those its answers created, in order")
            let refunded = final.transactions.filter { final.customer(of: $0).id == name && $0.isRevoked }
            XCTAssertEqual(refunded.count, rounds)
        }
        XCTAssertEqual(Set(final.transactions.map(\.transactionId)).count, final.transactions.count)
    }
}
