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

    /// Whether `record` may be dropped when the store's now is `now`.
    func lets(go record: DeliveryRecord, at now: StoreInstant) -> Bool {
        guard !record.inFlight, record.nextAttemptDate == nil || (!sends && record.attempts.isEmpty) else { return false }
        // TEST is Apple's notificationType of a test notification (Request a Test Notification).
        let window = StoreRetention.window(testNotification: record.notification.typeAndSubtype == "TEST", in: environment)
        let (cutoff, overflow) = now.subtractingReportingOverflow(window)
        return !overflow && record.queuedDate < cutoff
    }
}
