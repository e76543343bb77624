import AppInput
import ForgeSupport
import Foundation
import LocalAppStore
import NotificationDelivery
import StoreKit2

/// One environment's App Store Server Notifications V2: every event its store records
/// becomes a notification in the outbox (the record Get Notification History reads),
/// and a courier (the server's) sends what falls due to `url`.
///
/// The channel owns its store's events (`LocalAppStore.attachEventConsumer`): after each
/// write, whoever made it (the Server API's or the control API's handler, in process or
/// behind HTTP, a scenario, the embedding code) and after the clock catches up at a time
/// rate, the store tells the channel, which takes the new events and queues their
/// notifications, due at each event's instant, under one lock: in the store's order, each
/// once. By the time a write returns, its notifications are queued. A store has one
/// channel: a second over the same store is refused (`EventFeedError`), share the first.
///
/// Notifications are kept compact, the event (whose payloads the store took when it
/// happened) and the reset it happened after, and signed when sent or listed: the same
/// bytes each time, as the forge's signatures are deterministic.
///
/// Without a `url` the notifications are still queued, so Get Notification History
/// lists them, but nothing is sent: they have no send attempts (Apple keeps no record
/// without a URL; the forge keeps one because a test reading history needs it), and
/// Request a Test Notification answers 4040007 as Apple does.
public final class NotificationChannel: StoreEventConsumer {
    public let store: LocalAppStore
    public let outbox: NotificationOutbox
    /// The webhook (`forge serve --notify-url`); nil: notifications are recorded, not sent.
    public let url: String?
    let signing: NotificationSigning
    /// Held from taking the store's events to queueing their notifications (and while a
    /// TEST notification is queued), so that notifications are queued in event order.
    /// Lock order: this, then the store's lock, then the outbox's.
    private let queueing = Locked(TestNotifications())
    private let wakeContinuation: AsyncStream<Void>.Continuation
    /// Yields when there may be attempts due: notifications queued, or a clock moved.
    /// Buffers one wake-up, so a courier busy sending misses none and sees no backlog.
    public let wakeUps: AsyncStream<Void>

    public var environment: AppEnvironment { store.configuration.environment }

    /// The channel of `store`'s events, which it owns from now on; `.storeHasAnEventConsumer`
    /// when another channel (alive) owns them already.
    public init(store: LocalAppStore, url: String?) throws(EventFeedError) {
        self.store = store
        self.url = url
        outbox = NotificationOutbox(schedule: .of(store.configuration.environment),
                                    retention: NotificationRetention(environment: store.configuration.environment, sends: url != nil))
        signing = NotificationSigning(NotificationSigner(configuration: store.configuration))
        let wake = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeUps = wake.stream
        wakeContinuation = wake.continuation
        try store.attachEventConsumer(self)
    }

    /// Tells the courier to look for due attempts.
    public func wake() {
        wakeContinuation.yield()
    }

    /// Ends `wakeUps` (the courier's loop then returns).
    public func finish() {
        wakeContinuation.finish()
    }

    /// The store's call after a write (or a catch-up that recorded events): queues the new
    /// events' notifications and wakes the courier (a clock moved by the write may have
    /// made retries due though it recorded no event).
    public func storeChanged(_ store: LocalAppStore) {
        _ = queueing.withLock { queueEvents(&$0) }
        wake()
    }

    /// Catches the store's clock up (at a time rate it moves with no request at all) and
    /// queues the notifications of the events that recorded; answers how many. The
    /// server's ticker calls it; writes need no call (the store tells the channel).
    @discardableResult
    public func catchUp() -> Int {
        let queued = queueing.withLock { queueEvents(&$0) }
        if queued > 0 { wake() }
        return queued
    }

    /// Takes the store's new events and queues their notifications; called with `queueing` held.
    private func queueEvents(_: inout TestNotifications) -> Int {
        let fed = store.takeFedEvents(as: self)
        for item in fed {
            let source = EventNotificationSource(event: item.event, reset: item.reset, signing: signing)
            let notification = OutgoingNotification(notificationUUID: signing.signer.notificationUUID(for: item.event, reset: item.reset),
                                                    source: source)
            do throws(NotificationOutboxError) {
                try outbox.enqueue(notification, at: item.event.date)
            } catch {
                preconditionFailure("notification UUIDs are unique per store, reset and event: \(error)")
            }
        }
        return fed.count
    }

    /// The store's instant now (the clock a courier's attempts are made at).
    public var now: StoreInstant { store.read { $0.now } }

    /// Request a Test Notification: queues a TEST notification due now and answers its
    /// `testNotificationToken` (its `notificationUUID`). `.noNotificationURL` without a URL.
    public func requestTestNotification() throws(NotificationChannelError) -> String {
        guard url != nil else {
            throw NotificationChannelError(.noNotificationURL, "no notification URL for \(environment.rawValue) (forge serve --notify-url)")
        }
        return queueTestNotification()
    }

    /// Queues a TEST notification due now, after the notifications of the events recorded
    /// before it, URL or not (a scenario's `requestTestNotification` step records one
    /// with no webhook); answers its token.
    package func queueTestNotification() -> String {
        let date = now
        let token = queueing.withLock { tests in
            _ = queueEvents(&tests)
            tests.count += 1
            let token = signing.signer.testNotificationUUID(number: tests.count)
            let notification = OutgoingNotification(notificationUUID: token,
                                                    source: TestNotificationSource(number: tests.count, date: date, signing: signing))
            do throws(NotificationOutboxError) {
                try outbox.enqueue(notification, at: date)
            } catch {
                preconditionFailure("test notification numbers are unique per channel: \(error)")
            }
            return token
        }
        wake()
        return token
    }

    /// Get Test Notification Status: the test notification of `token` and its attempts;
    /// `.testNotificationNotFound` for a token this channel did not give out or whose
    /// first attempt is not made yet (Apple: "the test notification status isn't available").
    public func testNotificationStatus(token: String) throws(NotificationChannelError) -> DeliveryRecord {
        guard UUID(uuidString: token) != nil else {
            throw NotificationChannelError(.notATestNotificationToken, "'\(token)' is not a test notification token (a UUID)")
        }
        // The outbox keeps a TEST notification's record as long as Apple answers about it
        // (StoreRetention.testNotificationStatus); no list of tokens of its own.
        guard let record = outbox.record(notificationUUID: token), record.notification.typeAndSubtype == NotificationKind.test.description,
              !record.attempts.isEmpty else {
            throw NotificationChannelError(.testNotificationNotFound, "no test notification \(token) has been sent in \(environment.rawValue)")
        }
        return record
    }

    /// A notification this channel queued, signed, with what Apple's payload says (type,
    /// subtype, event): what a scenario's transcript shows. nil for one it did not queue.
    public func signedNotification(_ notification: OutgoingNotification) -> SignedNotification? {
        (notification.payloadSource as? any SignedNotificationSource)?.signedNotification()
    }

    /// The store event a notification this channel queued was made from; nil for a TEST
    /// notification or one it did not queue.
    public func event(of notification: OutgoingNotification) -> StoreEvent? {
        (notification.payloadSource as? EventNotificationSource)?.event
    }

    /// The TEST notifications requested so far.
    private struct TestNotifications {
        var count = 0
    }
}

/// Why a channel refused a TEST notification request: a code and a sentence. The Server
/// API answers each code with Apple's error (`ServerAPIError.init(_: NotificationChannelError)`).
public struct NotificationChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The environment has no webhook URL to send a test notification to.
        case noNotificationURL
        /// The token is not a UUID.
        case notATestNotificationToken
        /// The channel gave out no such token, or has not made its first attempt yet.
        case testNotificationNotFound
    }

    public let code: Code
    /// Why, in a sentence.
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(reason) (\(code.rawValue))" }
}

/// The signer a channel's notifications share (one per channel, not one per notification).
final class NotificationSigning: Sendable {
    let signer: NotificationSigner

    init(_ signer: NotificationSigner) {
        self.signer = signer
    }
}

/// What a channel's notifications are signed from: the whole signed notification, of
/// which the outbox needs the payload only.
package protocol SignedNotificationSource: SignedPayloadSource {
    func signedNotification() -> SignedNotification
}

extension SignedNotificationSource {
    package func signedPayload() -> String { signedNotification().signedPayload }
}

/// A store event's notification, signed when asked for.
package struct EventNotificationSource: SignedNotificationSource {
    package let event: StoreEvent
    let reset: Int
    let signing: NotificationSigning

    package var kind: NotificationKind { NotificationKind.of(event) }

    package var typeAndSubtype: String { kind.description }

    package func signedNotification() -> SignedNotification {
        do {
            return try signing.signer.notification(for: event, reset: reset)
        } catch {
            preconditionFailure("the StoreKit 2 CA's key signs (the server signed its answers with it): \(error)")
        }
    }
}

/// A TEST notification, signed when asked for.
package struct TestNotificationSource: SignedNotificationSource {
    let number: Int
    let date: StoreInstant
    let signing: NotificationSigning

    package var typeAndSubtype: String { NotificationKind.test.description }

    package func signedNotification() -> SignedNotification {
        do {
            return try signing.signer.testNotification(number: number, at: date)
        } catch {
            preconditionFailure("the StoreKit 2 CA's key signs (the server signed its answers with it): \(error)")
        }
    }
}
