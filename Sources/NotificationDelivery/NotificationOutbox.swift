import ForgeSupport
import LocalAppStore

/// The notifications of one environment waiting to be sent, and the record of every
/// attempt: a queue ordered by when each attempt is due in store time. Thread-safe: the
/// server queues from request handlers while a courier sends in the background.
///
/// An attempt is claimed (`claimDue`), sent by the caller, then its result recorded
/// (`record`); the schedule decides when, if ever, the next one is due. Claimed attempts
/// are not handed out twice, so two couriers never send the same attempt.
public final class NotificationOutbox: Sendable {
    private let queue = Locked(Queue())
    public let schedule: RetrySchedule

    private struct Queue {
        /// Every notification queued, in queue order.
        var records: [DeliveryRecord] = []
        /// Each `notificationUUID`'s position in `records`.
        var index: [String: Int] = [:]
        /// Attempts scheduled and not claimed, earliest first: a history of many delivered
        /// notifications, or many waiting for a retry, costs a claim nothing.
        var pending = DueAttempts()
    }

    public init(schedule: RetrySchedule) {
        self.schedule = schedule
    }

    /// An attempt handed to a courier: the notification, which attempt it is (1 for the
    /// first) and the store instant it is made at (when it was due).
    public struct Claim: Sendable, Hashable {
        public let notification: OutgoingNotification
        public let attempt: Int
        public let attemptDate: StoreInstant
    }

    /// Queues a notification whose first attempt is due at `date`.
    public func enqueue(_ notification: OutgoingNotification, at date: StoreInstant) throws(NotificationOutboxError) {
        try queue.withLock { (queue: inout Queue) throws(NotificationOutboxError) in
            guard queue.index[notification.notificationUUID] == nil else {
                throw .duplicateNotificationUUID(notification.notificationUUID)
            }
            queue.index[notification.notificationUUID] = queue.records.count
            queue.pending.insert(.init(date: date, position: queue.records.count))
            queue.records.append(DeliveryRecord(notification: notification, queuedDate: date))
        }
    }

    /// Claims every attempt due at or before `now` that is not already claimed, the
    /// earliest first (queue order among equals).
    /// At most `limit` of them: a courier claims a batch at a time, so one that stops
    /// between batches leaves the rest unclaimed.
    public func claimDue(upTo now: StoreInstant, limit: Int = .max) -> [Claim] {
        queue.withLock { queue in
            var claims: [Claim] = []
            while claims.count < limit, let first = queue.pending.first, first.date <= now {
                let item = queue.pending.removeFirst()
                queue.records[item.position].inFlight = true
                claims.append(Claim(notification: queue.records[item.position].notification,
                                    attempt: queue.records[item.position].attempts.count + 1, attemptDate: item.date))
            }
            return claims
        }
    }

    /// Records a claimed attempt's result and schedules the next one if it failed and
    /// the schedule has one left.
    public func record(_ claim: Claim, result: SendAttemptResult, detail: String) {
        queue.withLock { queue in
            guard let position = queue.index[claim.notification.notificationUUID], queue.records[position].inFlight,
                  queue.records[position].attempts.count + 1 == claim.attempt else {
                preconditionFailure("\(claim.notification.notificationUUID) attempt \(claim.attempt) was not claimed")
            }
            queue.records[position].inFlight = false
            queue.records[position].attempts.append(SendAttempt(attemptDate: claim.attemptDate, sendAttemptResult: result, detail: detail))
            queue.records[position].nextAttemptDate = result == .success
                ? nil : schedule.nextAttempt(after: claim.attempt, at: claim.attemptDate)
            if let next = queue.records[position].nextAttemptDate { queue.pending.insert(.init(date: next, position: position)) }
        }
    }

    /// Every notification queued so far, in queue order.
    public var allRecords: [DeliveryRecord] {
        queue.withLock { $0.records }
    }

    public func record(notificationUUID: String) -> DeliveryRecord? {
        queue.withLock { queue in queue.index[notificationUUID].map { queue.records[$0] } }
    }

    /// Where `notificationUUID` stands in queue order (0 for the first queued).
    public func position(of notificationUUID: String) -> Int? {
        queue.withLock { $0.index[notificationUUID] }
    }

    /// Up to `limit` records from queue position `start` on that `isIncluded` accepts,
    /// and the `notificationUUID` of the next accepted one when there is one (a page of
    /// history).
    ///
    /// The records are filtered outside the lock, in the copy-on-write snapshot taken
    /// under it: a filter that reads all of a large history (100,000 records: tens of
    /// milliseconds) does not hold up the courier or the requests queueing notifications
    /// meanwhile; the first of them to write pays one copy of the array instead.
    public func records(from start: Int, limit: Int, where isIncluded: (DeliveryRecord) -> Bool) -> (records: [DeliveryRecord], next: String?) {
        let snapshot = queue.withLock { $0.records }
        var page: [DeliveryRecord] = []
        for position in max(0, start)..<max(max(0, start), snapshot.count) where isIncluded(snapshot[position]) {
            if page.count == limit { return (page, snapshot[position].notification.notificationUUID) }
            page.append(snapshot[position])
        }
        return (page, nil)
    }

    /// How many notifications were queued.
    public var count: Int {
        queue.withLock { $0.records.count }
    }

    /// The earliest attempt due and not claimed, if any: when a courier should next look.
    public var nextDueDate: StoreInstant? {
        queue.withLock { $0.pending.first?.date }
    }
}

public enum NotificationOutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    case duplicateNotificationUUID(String)

    public var description: String {
        switch self {
        case .duplicateNotificationUUID(let uuid): return "notification \(uuid) is already queued"
        }
    }
}
