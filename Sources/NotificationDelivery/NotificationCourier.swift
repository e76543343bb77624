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
    ///
    /// At most `maximumConcurrentAttempts` are in flight, in a sliding window: an attempt
    /// that finishes frees its place at once for the next one due, so a slow webhook
    /// answer holds up only its own attempt, never a batch behind it. Each attempt's
    /// timeout (the sender's) starts when it is handed to the sender, which must be able
    /// to send that many at once (`HTTPWebhookSender`'s connection limit per host).
    /// After cancellation no attempt is started; those in flight finish and are recorded
    /// (a server shutting down with a backlog of thousands stops after at most a timeout).
    @discardableResult
    public func deliverDue(upTo now: StoreInstant) async -> [Report] {
        await withTaskGroup(of: (NotificationOutbox.Claim, WebhookOutcome).self) { group in
            var reports: [Report] = []
            var inFlight = 0
            while true {
                // Fill the free places with the attempts due, earliest first.
                if !Task.isCancelled, inFlight < maximumConcurrentAttempts {
                    for claim in outbox.claimDue(upTo: now, limit: maximumConcurrentAttempts - inFlight) {
                        group.addTask { (claim, await sender.post(claim.notification.body, to: url)) }
                        inFlight += 1
                    }
                }
                guard let finished = await group.next() else { break }
                let (claim, outcome) = finished
                inFlight -= 1
                // Recorded before the next claim: a failed attempt's retry, if due by `now`, is claimed after it.
                outbox.record(claim, result: outcome.result, detail: outcome.detail)
                let uuid = claim.notification.notificationUUID
                reports.append(Report(notificationUUID: uuid, typeAndSubtype: claim.notification.typeAndSubtype,
                                      attempt: claim.attempt, attemptDate: claim.attemptDate,
                                      outcome: outcome, nextAttemptDate: outbox.record(notificationUUID: uuid)?.nextAttemptDate))
            }
            return reports
        }
    }
}
