import LocalAppStore

/// Sends an outbox's due attempts to one webhook and records their results. A courier
/// never blocks whoever queues: the server runs `deliver(wakeUps:now:report:)` in a task
/// of its own; `deliverDue(upTo:)` makes what is due and returns.
///
/// Attempts are made at the store instant they fall due, so a clock moved 100 hours at
/// once makes the production schedule's attempts at +0, +1, +13, +37 and +85 hours, in
/// that order, each after the one before has failed.
public struct NotificationCourier: Sendable {
    public let outbox: NotificationOutbox
    public let sender: any WebhookSender
    public let url: String
    /// At most this many POSTs at once, so a slow webhook cannot pile up connections; the
    /// sender must allow as many connections to the webhook's host.
    public let maximumConcurrentAttempts: Int

    public init(outbox: NotificationOutbox, sender: any WebhookSender, url: String, maximumConcurrentAttempts: Int = 8) {
        self.outbox = outbox
        self.sender = sender
        self.url = url
        self.maximumConcurrentAttempts = max(1, maximumConcurrentAttempts)
    }

    /// One attempt made: which notification, which attempt, when (store time), and what became of it.
    public struct Report: Sendable, Hashable {
        public let notificationUUID: String
        /// The notification's `OutgoingNotification.typeAndSubtype`.
        public let typeAndSubtype: String
        public let attempt: Int
        public let attemptDate: StoreInstant
        public let outcome: WebhookOutcome
        /// When the next attempt is due, if the schedule has one.
        public let nextAttemptDate: StoreInstant?
    }

    /// Makes every attempt due at or before `now`, including retries that fall due
    /// before `now` because earlier attempts failed; answers them in the order they finished.
    /// In the sliding window of `deliver(wakeUps:now:report:)`, until nothing is due or in flight.
    @discardableResult
    public func deliverDue(upTo now: StoreInstant) async -> [Report] {
        var reports: [Report] = []
        await slide(wakeUps: nil, now: { now }) { reports.append($0) }
        return reports
    }

    /// Sends attempts as they fall due, until `wakeUps` ends or the task is cancelled (the
    /// attempts in flight then finish and are recorded, and none is started): on each
    /// wake-up (notifications queued, a clock moved) and each time an attempt finishes,
    /// the attempts due at `now()` are claimed into the free places. `report` gets each
    /// attempt as it finishes.
    ///
    /// At most `maximumConcurrentAttempts` are in flight, in a sliding window: an attempt
    /// that finishes frees its place at once for the next one due, and a notification
    /// queued while others are in flight is sent at once if there is a place, so a slow
    /// webhook answer holds up only its own attempt, never a batch behind it. Each
    /// attempt's timeout (the sender's) starts when it is handed to the sender, which
    /// must be able to send that many at once (`HTTPWebhookSender`'s connections per host).
    public func deliver(wakeUps: AsyncStream<Void>, now: () -> StoreInstant, report: (Report) -> Void) async {
        await slide(wakeUps: wakeUps, now: now, report: report)
    }

    /// What the window waits for: an attempt's end, a wake-up, or the end of the wake-ups.
    private enum Step: Sendable {
        case attempt(NotificationOutbox.Claim, WebhookOutcome)
        case wake
        case ended
    }

    /// The sliding window; without `wakeUps`, it ends when nothing is due or in flight.
    private func slide(wakeUps: AsyncStream<Void>?, now: () -> StoreInstant, report: (Report) -> Void) async {
        await withTaskGroup(of: Step.self) { group in
            var inFlight = 0
            var open = true
            if let wakeUps { group.addTask { await Self.nextWakeUp(wakeUps) } }
            while true {
                // Fill the free places with the attempts due, earliest first; none once cancelled.
                if open, !Task.isCancelled, inFlight < maximumConcurrentAttempts {
                    for claim in outbox.claimDue(upTo: now(), limit: maximumConcurrentAttempts - inFlight) {
                        group.addTask { .attempt(claim, await sender.post(claim.notification.body, to: url)) }
                        inFlight += 1
                    }
                }
                guard let step = await group.next() else { break }
                switch step {
                case .wake:
                    // One listener at a time: the stream has one consumer.
                    if let wakeUps { group.addTask { await Self.nextWakeUp(wakeUps) } }
                case .ended:
                    open = false
                case .attempt(let claim, let outcome):
                    inFlight -= 1
                    // Recorded before the next claim: a failed attempt's retry, if due, is claimed after it.
                    report(recorded(claim, outcome))
                }
            }
        }
    }

    private static func nextWakeUp(_ wakeUps: AsyncStream<Void>) async -> Step {
        var iterator = wakeUps.makeAsyncIterator()
        return await iterator.next() == nil ? .ended : .wake
    }

    /// Records an attempt's outcome in the outbox; answers its report.
    private func recorded(_ claim: NotificationOutbox.Claim, _ outcome: WebhookOutcome) -> Report {
        outbox.record(claim, result: outcome.result, detail: outcome.detail)
        let uuid = claim.notification.notificationUUID
        return Report(notificationUUID: uuid, typeAndSubtype: claim.notification.typeAndSubtype,
                      attempt: claim.attempt, attemptDate: claim.attemptDate,
                      outcome: outcome, nextAttemptDate: outbox.record(notificationUUID: uuid)?.nextAttemptDate)
    }
}
