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
    /// How long settled records are kept; nil: for ever.
    public let retention: NotificationRetention?

    private struct Queue {
        /// The notifications kept, in queue order (those dropped by `retention` are gone).
        var records: [DeliveryRecord] = []
        /// Each kept record's position in queue order, counting dropped ones: 0 for the
        /// first ever queued. Ascending; a position never changes, so pagination tokens
        /// and claims stay valid while older records are dropped.
        var positions: [Int] = []
        /// How many notifications were ever queued (the next one's position).
        var queued = 0
        /// Each kept `notificationUUID`'s position.
        var index: [String: Int] = [:]
        /// Attempts scheduled and not claimed, earliest first: a history of many delivered
        /// notifications, or many waiting for a retry, costs a claim nothing.
        var pending = DueAttempts()
        /// The latest instant a notification was queued at: the store's now, as far as
        /// the outbox knows, from which the retention windows are counted.
        var latest: StoreInstant = .min
        /// `queued` when the records were last looked over for dropping.
        var lookedOver = 0

        /// Where the record at `position` is in `records`, if it is kept.
        func slot(of position: Int) -> Int? {
            let slot = firstSlot(from: position)
            return slot < positions.count && positions[slot] == position ? slot : nil
        }

        /// The first slot whose position is `position` or later.
        func firstSlot(from position: Int) -> Int {
            var low = 0
            var high = positions.count
            while low < high {
                let middle = (low + high) / 2
                if positions[middle] < position { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Drops the records `retention` lets go. The records are looked over once a
        /// quarter as many (and at least 256) were queued since the last time, so a
        /// notification costs a bounded amount of looking over, and at most that many
        /// more are kept than the windows hold.
        mutating func trim(_ retention: NotificationRetention) {
            guard queued - lookedOver >= max(256, records.count / 4) else { return }
            lookedOver = queued
            // Records are queued about in date order: while the first is in the window, the
            // look-over is left for the next time (it would let go of little or nothing).
            guard let first = records.first, first.queuedDate < latest - retention.shortestWindow else { return }
            let expired = records.indices.filter { retention.lets(go: records[$0], at: latest) }
            guard !expired.isEmpty else { return }
            var keptRecords: [DeliveryRecord] = []
            var keptPositions: [Int] = []
            keptRecords.reserveCapacity(records.count - expired.count)
            keptPositions.reserveCapacity(records.count - expired.count)
            var droppedPending = false
            var next = 0
            for slot in records.indices {
                if next < expired.count, expired[next] == slot {
                    next += 1
                    index[records[slot].notification.notificationUUID] = nil
                    droppedPending = droppedPending || records[slot].nextAttemptDate != nil
                } else {
                    keptRecords.append(records[slot])
                    keptPositions.append(positions[slot])
                }
            }
            records = keptRecords
            positions = keptPositions
            if droppedPending {
                // Unsent records of a channel that sends nothing: their scheduled attempts go too.
                let kept = pending.elements.filter { slot(of: $0.position) != nil }
                pending.removeAll()
                for attempt in kept { pending.insert(attempt) }
            }
        }
    }

    public init(schedule: RetrySchedule, retention: NotificationRetention? = nil) {
        self.schedule = schedule
        self.retention = retention
    }

    /// An attempt handed to a courier: the notification, which attempt it is (1 for the
    /// first) and the store instant it is made at (when it was due).
    public struct Claim: Sendable, Hashable {
        public let notification: OutgoingNotification
        public let attempt: Int
        public let attemptDate: StoreInstant
    }

    /// Queues a notification whose first attempt is due at `date`, and drops the records
    /// `retention` lets go as of `date`.
    public func enqueue(_ notification: OutgoingNotification, at date: StoreInstant) throws(NotificationOutboxError) {
        try queue.withLock { (queue: inout Queue) throws(NotificationOutboxError) in
            guard queue.index[notification.notificationUUID] == nil else {
                throw .duplicateNotificationUUID(notification.notificationUUID)
            }
            let position = queue.queued
            queue.queued += 1
            queue.index[notification.notificationUUID] = position
            queue.pending.insert(.init(date: date, position: position))
            queue.records.append(DeliveryRecord(notification: notification, queuedDate: date))
            queue.positions.append(position)
            queue.latest = max(queue.latest, date)
            if let retention { queue.trim(retention) }
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
                guard let slot = queue.slot(of: item.position) else { continue }
                queue.records[slot].inFlight = true
                claims.append(Claim(notification: queue.records[slot].notification,
                                    attempt: queue.records[slot].attempts.count + 1, attemptDate: item.date))
            }
            return claims
        }
    }

    /// Records a claimed attempt's result and schedules the next one if it failed and
    /// the schedule has one left.
    public func record(_ claim: Claim, result: SendAttemptResult, detail: String) {
        queue.withLock { queue in
            guard let position = queue.index[claim.notification.notificationUUID], let slot = queue.slot(of: position),
                  queue.records[slot].inFlight, queue.records[slot].attempts.count + 1 == claim.attempt else {
                preconditionFailure("\(claim.notification.notificationUUID) attempt \(claim.attempt) was not claimed")
            }
            queue.records[slot].inFlight = false
            queue.records[slot].attempts.append(SendAttempt(attemptDate: claim.attemptDate, sendAttemptResult: result, detail: detail))
            queue.records[slot].nextAttemptDate = result == .success
                ? nil : schedule.nextAttempt(after: claim.attempt, at: claim.attemptDate)
            if let next = queue.records[slot].nextAttemptDate { queue.pending.insert(.init(date: next, position: position)) }
        }
    }

    /// Every notification kept, in queue order.
    public var allRecords: [DeliveryRecord] {
        queue.withLock { $0.records }
    }

    public func record(notificationUUID: String) -> DeliveryRecord? {
        queue.withLock { queue in queue.index[notificationUUID].flatMap { queue.slot(of: $0) }.map { queue.records[$0] } }
    }

    /// Where `notificationUUID` stands in queue order (0 for the first queued; dropped
    /// records count), or nil when it was never queued or has been dropped.
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
        let (snapshot, first) = queue.withLock { queue in (queue.records, queue.firstSlot(from: start)) }
        var page: [DeliveryRecord] = []
        for slot in first..<max(first, snapshot.count) where isIncluded(snapshot[slot]) {
            if page.count == limit { return (page, snapshot[slot].notification.notificationUUID) }
            page.append(snapshot[slot])
        }
        return (page, nil)
    }

    /// How many notifications were ever queued (dropped ones included).
    public var count: Int {
        queue.withLock { $0.queued }
    }

    /// How many notifications are kept (`retention` drops the others).
    public var keptCount: Int {
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
