import Foundation
import LocalAppStore

/// The notifications of one environment waiting to be sent, and the record of every
/// attempt: a queue ordered by when each attempt is due in store time. Thread-safe: the
/// server queues from request handlers while a courier sends in the background.
///
/// An attempt is claimed (`claimDue`), sent by the caller, then its result recorded
/// (`record`); the schedule decides when, if ever, the next one is due. Claimed attempts
/// are not handed out twice, so two couriers never send the same attempt.
public final class NotificationOutbox: @unchecked Sendable {
    // @unchecked: `records` and `index` are only touched with `lock` held.
    private let lock = NSLock()
    private var records: [DeliveryRecord] = []
    private var index: [String: Int] = [:]
    /// Positions with an attempt scheduled and not claimed: a history of many delivered
    /// notifications costs a claim nothing.
    private var pending: Set<Int> = []
    public let schedule: RetrySchedule

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

    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case duplicateNotificationUUID(String)

        public var description: String {
            switch self {
            case .duplicateNotificationUUID(let uuid): return "notification \(uuid) is already queued"
            }
        }
    }

    /// Queues a notification whose first attempt is due at `date`.
    public func enqueue(_ notification: OutgoingNotification, at date: StoreInstant) throws(Refusal) {
        lock.lock()
        defer { lock.unlock() }
        guard index[notification.notificationUUID] == nil else {
            throw .duplicateNotificationUUID(notification.notificationUUID)
        }
        index[notification.notificationUUID] = records.count
        pending.insert(records.count)
        records.append(DeliveryRecord(notification: notification, queuedDate: date))
    }

    /// Claims every attempt due at or before `now` that is not already claimed, the
    /// earliest first (queue order among equals).
    public func claimDue(upTo now: StoreInstant) -> [Claim] {
        lock.lock()
        defer { lock.unlock() }
        var due: [(date: StoreInstant, position: Int)] = []
        for position in pending {
            if let date = records[position].nextAttemptDate, date <= now { due.append((date, position)) }
        }
        due.sort { ($0.date, $0.position) < ($1.date, $1.position) }
        return due.map { item in
            records[item.position].inFlight = true
            pending.remove(item.position)
            return Claim(notification: records[item.position].notification,
                         attempt: records[item.position].attempts.count + 1, attemptDate: item.date)
        }
    }

    /// Records a claimed attempt's result and schedules the next one if it failed and
    /// the schedule has one left.
    public func record(_ claim: Claim, result: SendAttemptResult, detail: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let position = index[claim.notification.notificationUUID], records[position].inFlight,
              records[position].attempts.count + 1 == claim.attempt else {
            preconditionFailure("\(claim.notification.notificationUUID) attempt \(claim.attempt) was not claimed")
        }
        records[position].inFlight = false
        records[position].attempts.append(SendAttempt(attemptDate: claim.attemptDate, sendAttemptResult: result, detail: detail))
        records[position].nextAttemptDate = result == .success
            ? nil : schedule.nextAttempt(after: claim.attempt, at: claim.attemptDate)
        if records[position].nextAttemptDate != nil { pending.insert(position) }
    }

    /// Every notification queued so far, in queue order.
    public var allRecords: [DeliveryRecord] {
        lock.lock()
        defer { lock.unlock() }
        return records
    }

    public func record(notificationUUID: String) -> DeliveryRecord? {
        lock.lock()
        defer { lock.unlock() }
        return index[notificationUUID].map { records[$0] }
    }

    /// The earliest attempt due and not claimed, if any: when a courier should next look.
    public var nextDueDate: StoreInstant? {
        lock.lock()
        defer { lock.unlock() }
        return pending.compactMap { records[$0].nextAttemptDate }.min()
    }
}
