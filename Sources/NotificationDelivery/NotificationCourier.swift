import LocalAppStore

/// Sends an outbox's due attempts to one webhook and records their results. A courier
/// never blocks whoever queues: the server calls `deliverDue` from a task of its own.
///
/// Attempts are made at the store instant they fall due, so a clock moved 100 hours at
/// once makes the production schedule's attempts at +0, +1, +13, +37 and +85 hours, in
/// that order, each after the one before has failed.
public struct NotificationCourier: Sendable {
    public let outbox: NotificationOutbox
    public let sender: any WebhookSender
    public let url: String
    /// At most this many POSTs at once, so a slow webhook cannot pile up connections.
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
    /// before `now` because earlier attempts failed; answers them in the order made.
    @discardableResult
    public func deliverDue(upTo now: StoreInstant) async -> [Report] {
        var reports: [Report] = []
        // A batch at a time, and none after cancellation: a server shutting down with a
        // backlog of thousands stops after the attempts in flight.
        while !Task.isCancelled {
            let batch = outbox.claimDue(upTo: now, limit: maximumConcurrentAttempts)
            guard !batch.isEmpty else { break }
            let outcomes = await withTaskGroup(of: (Int, WebhookOutcome).self) { group in
                for (offset, claim) in batch.enumerated() {
                    group.addTask { (offset, await sender.post(claim.notification.body, to: url)) }
                }
                var outcomes = [WebhookOutcome?](repeating: nil, count: batch.count)
                for await (offset, outcome) in group { outcomes[offset] = outcome }
                return outcomes
            }
            for (claim, outcome) in zip(batch, outcomes) {
                guard let outcome else { preconditionFailure("every attempt of the batch reports") }
                outbox.record(claim, result: outcome.result, detail: outcome.detail)
                let uuid = claim.notification.notificationUUID
                reports.append(Report(notificationUUID: uuid, typeAndSubtype: claim.notification.typeAndSubtype,
                                      attempt: claim.attempt, attemptDate: claim.attemptDate,
                                      outcome: outcome, nextAttemptDate: outbox.record(notificationUUID: uuid)?.nextAttemptDate))
            }
        }
        return reports
    }
}
