import AppInput
import LocalAppStore
import NotificationDelivery
import XCTest

/// Review finding 3: an outbox at a time rate grows with no request at all; it lets go
/// of settled records once they are older than Apple's history window (30 days in the
/// sandbox, 180 in production), keeps TEST notifications six months (Get Test
/// Notification Status), keeps whatever still waits for an attempt, and keeps the
/// positions of the others, so pagination goes on where it was.
final class OutboxRetentionTests: XCTestCase {
    private let start: StoreInstant = 1_780_000_000_000

    private func notification(_ number: Int, type: String = "DID_RENEW") -> OutgoingNotification {
        OutgoingNotification(notificationUUID: String(format: "00000000-0000-4000-8000-%012d", number), typeAndSubtype: type,
                             signedPayload: "payload-\(number)")
    }

    /// Queues one notification an hour for `hours` hours, each delivered at once.
    private func run(_ outbox: NotificationOutbox, hours: Int, deliver: Bool = true, test: (Int) -> Bool = { _ in false }) throws {
        for hour in 0..<hours {
            let date = start + Int64(hour) * StoreDuration.hour
            try outbox.enqueue(notification(hour, type: test(hour) ? "TEST" : "DID_RENEW"), at: date)
            guard deliver else { continue }
            for claim in outbox.claimDue(upTo: date) { outbox.record(claim, result: .success, detail: "200") }
        }
    }

    func testSettledRecordsOlderThanTheSandboxWindowAreDropped() throws {
        let outbox = NotificationOutbox(schedule: .sandbox, retention: NotificationRetention(environment: .sandbox, sends: true))
        try run(outbox, hours: 24 * 120, test: { $0 == 24 * 80 })
        let window = 30 * 24  // hours
        let kept = outbox.allRecords
        XCTAssertEqual(outbox.count, 24 * 120, "every notification was queued")
        // The window holds 720; up to a quarter more (or 256) wait for the next look-over.
        XCTAssertGreaterThanOrEqual(kept.count, window)
        XCTAssertLessThan(kept.count, window + 256 + 720 / 4)
        let latest = start + Int64(24 * 120 - 1) * StoreDuration.hour
        XCTAssertTrue(kept.filter { $0.notification.typeAndSubtype != "TEST" }.allSatisfy { $0.queuedDate >= latest - Int64(window + 256 + 180) * StoreDuration.hour })
        XCTAssertNotNil(outbox.record(notificationUUID: notification(24 * 80).notificationUUID), "a TEST notification is kept six months")
        XCTAssertNil(outbox.record(notificationUUID: notification(0).notificationUUID))
        XCTAssertNil(outbox.position(of: notification(0).notificationUUID), "a dropped record is no page's start")

        // Positions are those of the queue, dropped records counted: a page from a kept one starts at it.
        let last = notification(24 * 120 - 20).notificationUUID
        let position = try XCTUnwrap(outbox.position(of: last))
        XCTAssertEqual(position, 24 * 120 - 20)
        let page = outbox.records(from: position, limit: 20) { _ in true }
        XCTAssertEqual(page.records.first?.notification.notificationUUID, last)
        XCTAssertEqual(page.records.count, 20)
        XCTAssertNil(page.next)
    }

    func testAProductionRecordIsKept180Days() throws {
        let outbox = NotificationOutbox(schedule: .production, retention: NotificationRetention(environment: .production, sends: true))
        try run(outbox, hours: 24 * 300)
        XCTAssertGreaterThanOrEqual(outbox.keptCount, 24 * 180)
        XCTAssertLessThanOrEqual(outbox.keptCount, 24 * 180 * 4 / 3, "at most a third more than the window")
    }

    func testWhatWaitsForAnAttemptIsKeptUnlessNothingSends() throws {
        let sending = NotificationOutbox(schedule: .sandbox, retention: NotificationRetention(environment: .sandbox, sends: true))
        try run(sending, hours: 24 * 120, deliver: false)
        XCTAssertEqual(sending.keptCount, 24 * 120, "a courier may still send them")
        XCTAssertEqual(sending.claimDue(upTo: .max).count, 24 * 120)

        let silent = NotificationOutbox(schedule: .sandbox, retention: NotificationRetention(environment: .sandbox, sends: false))
        try run(silent, hours: 24 * 120, deliver: false)
        XCTAssertLessThan(silent.keptCount, 30 * 24 + 256 + 180)
        XCTAssertEqual(silent.claimDue(upTo: .max).count, silent.keptCount, "the dropped records' attempts went with them")
    }

    func testWithoutRetentionEverythingIsKept() throws {
        let outbox = NotificationOutbox(schedule: .sandbox)
        try run(outbox, hours: 24 * 60)
        XCTAssertEqual(outbox.keptCount, 24 * 60)
    }
}
