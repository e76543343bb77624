import AppInput
import LocalAppStore
@testable import StoreServerAPI
import XCTest

/// Get Notification History's request as Apple checks it, rule by rule, each with the page
/// of Apple's documentation it comes from.
final class NotificationHistoryQueryTests: XCTestCase {
    private let now: StoreInstant = 1_800_000_000_000

    private func query(start: Int64, end: Int64? = nil, type: String? = nil, subtype: String? = nil,
                       environment: AppEnvironment = .production) -> Result<NotificationHistoryQuery, ServerAPIError> {
        let body = NotificationHistoryQuery.Body(startDate: start, endDate: end ?? now, notificationType: type, notificationSubtype: subtype,
                                                 transactionId: nil, onlyFailures: nil)
        do throws(ServerAPIError) {
            return .success(try NotificationHistoryQuery(body: body, now: now, environment: environment))
        } catch {
            return .failure(error)
        }
    }

    /// "Notification history is available for the past 180 days in the production environment,
    /// and the past 30 days in the sandbox environment"
    /// (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history).
    func testTheHistoryReaches180DaysInProductionAnd30InTheSandbox() throws {
        for (environment, days) in [(AppEnvironment.production, 180), (.sandbox, 30)] {
            let oldest = now - StoreDuration.days(days)
            XCTAssertNoThrow(try query(start: oldest, environment: environment).get(), "\(environment) at \(days) days")
            guard case .failure(let failure) = query(start: oldest - 1, environment: environment) else {
                XCTFail("\(environment): a start 1 ms before \(days) days was accepted")
                continue
            }
            XCTAssertEqual(failure.error.code, 4_000_012, "\(environment): \(failure)")
            XCTAssertTrue(failure.description.contains("\(days) days"), failure.description)
        }
        XCTAssertNoThrow(try query(start: now - StoreDuration.days(31), environment: .production).get())
    }

    /// "If you specify a notificationSubtype, you need to also specify its related notificationType"
    /// (https://developer.apple.com/documentation/appstoreserverapi/notificationsubtype): 4000018.
    func testASubtypeWithoutItsTypeIsRefused() throws {
        let start = now - StoreDuration.days(1)
        guard case .failure(let failure) = query(start: start, subtype: "INITIAL_BUY") else {
            return XCTFail("a subtype without its type was accepted")
        }
        XCTAssertEqual(failure.error.code, 4_000_018, "\(failure)")
        XCTAssertTrue(failure.description.contains("notificationType"), failure.description)
        let both = try query(start: start, type: "SUBSCRIBED", subtype: "INITIAL_BUY").get()
        XCTAssertEqual(both.type?.rawValue, "SUBSCRIBED")
        XCTAssertEqual(both.subtype?.rawValue, "INITIAL_BUY")
    }
}
