import ForgeServer
import Foundation
import LocalAppStore
import StoreServerAPI
import StrictJSON
import TestSupport
import XCTest

/// A server whose stores run at a time rate: a subscription bought through the control
/// API renews as the (injected) wall clock moves, and the Server API's history shows the
/// renewals; `advanceClock` adds to the running clock.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
final class TimeRateServeTests: XCTestCase {
    func testRenewalsShowThroughTheServerAPIAsTheScaledClockRuns() async throws {
        let wall = TestWallClock()
        var options = ServeOptions()
        options.serverAPIAuthentication = .disabled
        let rate = try XCTUnwrap(StoreTimeRate("oneSecondIsOneDay"))
        options.stores = LocalAppStores(StoreConfiguration(customers: 0),
                                        clock: ScaledClockSource(start: 0, rate: rate.factor, wallClock: wall.read))
        try await ServerHarness.with(options) { server in
            let bought = try await server.send("/sandbox/forge/v1/buyProduct",
                                               body: Array(#"{"customer":"alice","productId":"com.example.receiptforge.subscription.monthly"}"#.utf8))
            XCTAssertEqual(bought.http, 200, bought.text)
            let id = try XCTUnwrap(try bought.json()["transactionIds"]?.arrayValue?.first?.stringValue)
            func historyCount() async throws -> Int {
                let history = try await server.send("/sandbox/inApps/v2/history/\(id)", method: "GET")
                XCTAssertEqual(history.http, 200, history.text)
                return try XCTUnwrap(try history.json()["signedTransactions"]?.arrayValue?.count)
            }
            let atPurchase = try await historyCount()
            XCTAssertEqual(atPurchase, 1)
            wall.move(by: 29_000)  // 29 days
            let beforeRenewal = try await historyCount()
            XCTAssertEqual(beforeRenewal, 1)
            wall.move(by: 2_000)  // day 31: the first renewal
            let afterRenewal = try await historyCount()
            XCTAssertEqual(afterRenewal, 2)
            // advanceClock adds 30 days to the running clock: day 61, a second renewal.
            let advanced = try await server.send("/sandbox/forge/v1/advanceClock", body: Array(#"{"seconds": 2592000}"#.utf8))
            XCTAssertEqual(advanced.http, 200, advanced.text)
            let afterAdvance = try await historyCount()
            XCTAssertEqual(afterAdvance, 3)
            // The production store runs on the same clock, with nothing to renew.
            let production = try await server.send("/inApps/v2/history/\(id)", method: "GET")
            XCTAssertEqual(production.http, 404)
        }
    }
}
