import LocalAppStore

/// One attempt to send a notification: Apple's `sendAttemptItem` (`attemptDate`, store
/// time, and `sendAttemptResult`), plus what the forge saw (the HTTP status, or the
/// error), which Apple does not report.
public struct SendAttempt: Sendable, Hashable, Encodable {
    public let attemptDate: StoreInstant
    public let sendAttemptResult: SendAttemptResult
    public let detail: String

    public init(attemptDate: StoreInstant, sendAttemptResult: SendAttemptResult, detail: String) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
        self.detail = detail
    }
}

/// A notification and every attempt to send it: what Get Notification History reads.
public struct DeliveryRecord: Sendable, Hashable {
    public let notification: OutgoingNotification
    /// When the notification was queued (its first attempt was due then).
    public let queuedDate: StoreInstant
    public internal(set) var attempts: [SendAttempt] = []
    /// When the next attempt is due; nil once delivered or out of retries.
    public internal(set) var nextAttemptDate: StoreInstant?

    public var isDelivered: Bool { attempts.last?.sendAttemptResult == .success }
    /// Delivered, or every attempt the schedule allows has failed.
    public var isSettled: Bool { nextAttemptDate == nil && !inFlight }

    /// An attempt was handed out and its result is not recorded yet.
    var inFlight = false

    init(notification: OutgoingNotification, queuedDate: StoreInstant) {
        self.notification = notification
        self.queuedDate = queuedDate
        nextAttemptDate = queuedDate
    }
}
