import AppInput
import ForgeCA
import ForgeSupport
import LocalAppStore
import StoreKit2
import StoreKit2Forge

/// Turns store events into the signed App Store Server Notifications V2 Apple sends for
/// them (`NotificationKind.of` chooses type and subtype). Each is signed by the forge's
/// StoreKit 2 CA with the call the Server API signs with (`JWSForge.signAsAppStore`),
/// and its `signedTransactionInfo`, `signedRenewalInfo` and `status` are signed from the
/// payloads the store took when it recorded the event (`StoreEvent.subject`): the bytes
/// Get Transaction Info and Get All Subscription Statuses answered at that instant, so
/// the same JWS.
///
/// No lock and no store: a server takes `StoreActionResult.events` from a write and
/// signs them after it, outside the store's lock, then queues them for delivery at each
/// event's `date`. The same configuration and events give the same notifications, byte
/// for byte (`notificationUUID` comes from the seed, the environment and the event's
/// sequence; ECDSA nonces are deterministic).
public struct NotificationSigner: Sendable {
    public let configuration: StoreConfiguration
    private let forge: JWSForge

    /// Apple's notification payload version.
    public static let version = "2.0"

    public init(configuration: StoreConfiguration, authority: JWSAuthority = .committed) {
        self.configuration = configuration
        forge = JWSForge(app: configuration.app, authority: authority, appAppleId: configuration.appAppleId)
    }

    /// The notification of each event, in order.
    public func notifications(for events: [StoreEvent]) throws(KeyError) -> [SignedNotification] {
        var signed: [SignedNotification] = []
        signed.reserveCapacity(events.count)
        for event in events {
            signed.append(try notification(for: event))
        }
        return signed
    }

    /// The notification Apple sends for `event`, which happened after the store's
    /// `reset`-th reset (`LocalAppStore.FedEvent.reset`; 0 before any).
    public func notification(for event: StoreEvent, reset: Int = 0) throws(KeyError) -> SignedNotification {
        let kind = NotificationKind.of(event)
        var payload = ResponseBodyV2DecodedPayload()
        payload.notificationType = kind.type.rawValue
        payload.subtype = kind.subtype?.rawValue
        payload.notificationUUID = notificationUUID(for: event, reset: reset)
        payload.version = Self.version
        payload.signedDate = JWSDate(milliseconds: event.date)
        if let massExtension = event.subject?.massExtension {
            payload.summary = summary(massExtension)
        } else {
            payload.data = try data(event)
        }
        return try sign(payload, kind: kind, eventSequence: event.sequence, date: event.date)
    }

    /// Request a Test Notification's TEST notification: `data` names the app only.
    /// `number` tells one test notification from the next (1, 2, …).
    public func testNotification(number: Int, at date: StoreInstant) throws(KeyError) -> SignedNotification {
        var payload = ResponseBodyV2DecodedPayload()
        payload.notificationType = NotificationKind.test.type.rawValue
        payload.notificationUUID = testNotificationUUID(number: number)
        payload.version = Self.version
        payload.signedDate = JWSDate(milliseconds: date)
        var data = NotificationData()
        data.appAppleId = configuration.appAppleId
        data.bundleId = configuration.app.bundleIdentifier
        data.environment = configuration.environment.rawValue
        payload.data = data
        return try sign(payload, kind: .test, eventSequence: nil, date: date)
    }

    // MARK: Parts

    /// `data`: the app, and the event's transaction, renewal info and status signed.
    private func data(_ event: StoreEvent) throws(KeyError) -> NotificationData {
        var data = NotificationData()
        data.appAppleId = configuration.appAppleId
        data.bundleId = configuration.app.bundleIdentifier
        data.bundleVersion = configuration.app.version
        data.environment = configuration.environment.rawValue
        if let transaction = event.subject?.transaction {
            data.signedTransactionInfo = try forge.signAsAppStore(StoreKit2JSON.encode(transaction))
        }
        if let renewalInfo = event.subject?.renewalInfo {
            data.signedRenewalInfo = try forge.signAsAppStore(StoreKit2JSON.encode(renewalInfo))
        }
        data.status = event.subject?.status?.rawValue
        if case .consumptionRequested(let reason) = event.kind {
            data.consumptionRequestReason = reason.rawValue
        }
        return data
    }

    /// `summary`: the counts of a finished extension for all active subscribers.
    private func summary(_ massExtension: MassExtension) -> NotificationSummary {
        var summary = NotificationSummary()
        summary.appAppleId = configuration.appAppleId
        summary.bundleId = configuration.app.bundleIdentifier
        summary.environment = configuration.environment.rawValue
        summary.productId = massExtension.productId
        summary.requestIdentifier = massExtension.requestIdentifier
        summary.storefrontCountryCodes = massExtension.storefrontCountryCodes
        summary.succeededCount = Int64(massExtension.succeededCount)
        summary.failedCount = Int64(massExtension.failedCount)
        return summary
    }

    private func sign(_ payload: ResponseBodyV2DecodedPayload, kind: NotificationKind, eventSequence: Int?,
                      date: StoreInstant) throws(KeyError) -> SignedNotification {
        SignedNotification(notificationUUID: payload.notificationUUID ?? "", notificationType: kind.type, subtype: kind.subtype,
                           eventSequence: eventSequence, signedDate: date,
                           signedPayload: try forge.signAsAppStore(StoreKit2JSON.encode(payload)), decodedPayload: payload)
    }

    /// The `notificationUUID` of `event`'s notification, without signing it. Drawn from
    /// the seed, the environment and the event's sequence, and after a reset (whose
    /// events number from 1 again) the reset's number too, so no two notifications of
    /// a store share one and the same actions give the same UUIDs.
    public func notificationUUID(for event: StoreEvent, reset: Int = 0) -> String {
        let environment = configuration.environment.rawValue
        return notificationUUID(label: reset == 0 ? "notification:\(environment):\(event.sequence)"
                                                  : "notification:\(environment):reset-\(reset):\(event.sequence)")
    }

    /// The `notificationUUID` of test notification `number` (`testNotification(number:at:)`).
    public func testNotificationUUID(number: Int) -> String {
        notificationUUID(label: "test-notification:\(configuration.environment.rawValue):\(number)")
    }

    /// A version 4 UUID drawn from the store's seed and `label`.
    private func notificationUUID(label: String) -> String {
        DeterministicUUID(seed: configuration.seed, label: label).description
    }
}
