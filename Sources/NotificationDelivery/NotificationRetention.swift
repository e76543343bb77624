import AppInput
import LocalAppStore

/// Which records an outbox lets go, and when: a record no attempt is pending for (or in
/// flight), once it is older than its window (`StoreRetention`: Get Notification
/// History's 180 days in production and 30 in the sandbox; six months for a TEST
/// notification's status), counted in store time from when it was queued. A record
/// still waiting for an attempt is kept, however old, so a courier that lags behind a
/// fast clock loses nothing; but an outbox that nothing sends from (no webhook URL)
/// lets go of records never attempted the same way.
public struct NotificationRetention: Sendable, Hashable {
    public let environment: AppEnvironment
    /// Whether a courier sends the outbox's notifications.
    public let sends: Bool

    public init(environment: AppEnvironment, sends: Bool) {
        self.environment = environment
        self.sends = sends
    }

    /// The shortest window a record of this outbox has: none younger is let go.
    var shortestWindow: Int64 {
        min(StoreRetention.notificationHistory(in: environment), StoreRetention.testNotificationStatus)
    }

    /// Whether `record` may be dropped when the store's now is `now`. The cheap checks
    /// come first: the type (made from the event for a notification signed on demand) is
    /// asked only of a record older than the shortest window.
    func lets(go record: DeliveryRecord, at now: StoreInstant) -> Bool {
        guard !record.inFlight, record.nextAttemptDate == nil || (!sends && record.attempts.isEmpty),
              record.queuedDate < now.subtractingClamped(shortestWindow) else { return false }
        // TEST is Apple's notificationType of a test notification (Request a Test Notification).
        let window = StoreRetention.window(testNotification: record.notification.typeAndSubtype == "TEST", in: environment)
        return record.queuedDate < now.subtractingClamped(window)
    }
}

private extension Int64 {
    /// `self - other`, or `Int64.min` below it (`other` is never negative here).
    func subtractingClamped(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? .min : difference
    }
}
