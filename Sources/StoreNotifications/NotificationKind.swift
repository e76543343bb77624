import AppInput
import LocalAppStore

/// A notification's `notificationType` and `subtype`.
public struct NotificationKind: Sendable, Hashable, CustomStringConvertible {
    public let type: NotificationType
    public let subtype: NotificationSubtype?

    public init(_ type: NotificationType, _ subtype: NotificationSubtype? = nil) {
        self.type = type
        self.subtype = subtype
    }

    public var description: String { subtype.map { "\(type.rawValue)/\($0.rawValue)" } ?? type.rawValue }

    /// Request a Test Notification's notification (no subtype):
    /// https://developer.apple.com/documentation/appstoreserverapi/request_a_test_notification
    public static let test = NotificationKind(.test)

    /// The table: which notification Apple sends for each store event. Every row is
    /// Apple's description of the type (T) or subtype (S) on
    /// T = https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
    /// S = https://developer.apple.com/documentation/appstoreservernotifications/subtype
    /// Apple sends one notification per event and customer; a family member's copy has
    /// an event, so a notification, of its own.
    public static func of(_ event: StoreEvent) -> NotificationKind {
        switch event.kind {
        case .purchased(let resubscribe):
            // T ONE_TIME_CHARGE: a consumable, non-consumable or non-renewing subscription
            // bought, or a non-consumable received through Family Sharing (Apple sent it in
            // the sandbox only at first: developer.apple.com/forums/thread/764348).
            guard event.subject?.transaction?.type == Product.Kind.autoRenewableSubscription.appleType else {
                return NotificationKind(.oneTimeCharge)
            }
            // T OFFER_REDEEMED: a promotional offer, offer code or win-back offer redeemed;
            // INITIAL_BUY for a first purchase, RESUBSCRIBE for an inactive subscription.
            // An introductory offer is not one of these: T SUBSCRIBED.
            if let offer = event.subject?.transaction?.offerType.flatMap(OfferType.init(rawValue:)), offer != .introductoryOffer {
                return NotificationKind(.offerRedeemed, resubscribe ? .resubscribe : .initialBuy)
            }
            // T SUBSCRIBED: INITIAL_BUY, bought or received through Family Sharing for the
            // first time in the group; RESUBSCRIBE, again in the same group.
            return NotificationKind(.subscribed, resubscribe ? .resubscribe : .initialBuy)
        case .renewed(let billingRecovery):
            // T DID_RENEW: BILLING_RECOVERY, an expired subscription that failed to renew
            // renewed; no subtype, an active subscription renewed.
            return NotificationKind(.didRenew, billingRecovery ? .billingRecovery : nil)
        case .failedToRenew(let gracePeriod):
            // T DID_FAIL_TO_RENEW: GRACE_PERIOD, service continues through the grace period;
            // no subtype, the subscription is in billing retry outside one.
            return NotificationKind(.didFailToRenew, gracePeriod ? .gracePeriod : nil)
        case .gracePeriodExpired:
            // T GRACE_PERIOD_EXPIRED: the grace period ended without a renewal.
            return NotificationKind(.gracePeriodExpired)
        case .expired(let intent):
            // T EXPIRED: VOLUNTARY after the customer turned renewal off; BILLING_RETRY when
            // billing retry ended without a renewal; PRICE_INCREASE when the customer did not
            // consent to a price increase; PRODUCT_NOT_FOR_SALE when the product was not for
            // sale at renewal; no subtype for any other reason.
            switch intent {
            case .customerCancelled: return NotificationKind(.expired, .voluntary)
            case .billingError: return NotificationKind(.expired, .billingRetry)
            case .customerDidNotConsentToPriceIncrease: return NotificationKind(.expired, .priceIncrease)
            case .productNotAvailable: return NotificationKind(.expired, .productNotForSale)
            case .other: return NotificationKind(.expired)
            }
        case .autoRenewChanged(let enabled):
            // T DID_CHANGE_RENEWAL_STATUS: AUTO_RENEW_ENABLED / AUTO_RENEW_DISABLED.
            return NotificationKind(.didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled)
        case .renewalPreferenceChanged(let change):
            // T DID_CHANGE_RENEWAL_PREF: UPGRADE, an upgrade or a crossgrade to the same
            // duration (at once); DOWNGRADE, a downgrade or a crossgrade to another duration
            // (at the next renewal); no subtype, back to the current product (a downgrade
            // withdrawn). S UPGRADE and DOWNGRADE say the same.
            switch change {
            case .upgrade, .crossgradeImmediate: return NotificationKind(.didChangeRenewalPref, .upgrade)
            case .downgrade, .crossgradeAtRenewal: return NotificationKind(.didChangeRenewalPref, .downgrade)
            case .cancelled: return NotificationKind(.didChangeRenewalPref)
            }
        case .priceIncrease(let status):
            // T PRICE_INCREASE: PENDING, the customer has not responded to an increase that
            // needs consent; ACCEPTED, they consented, or were told of one that needs none.
            switch status {
            case .customerHasNotResponded: return NotificationKind(.priceIncrease, .pending)
            case .customerConsentedOrWasNotifiedWithoutNeedingConsent: return NotificationKind(.priceIncrease, .accepted)
            }
        case .refunded:
            // T REFUND: the App Store refunded a transaction.
            return NotificationKind(.refund)
        case .refundDeclined:
            // T REFUND_DECLINED: the App Store declined a refund request.
            return NotificationKind(.refundDeclined)
        case .refundReversed:
            // T REFUND_REVERSED: the App Store reversed a refund it granted.
            return NotificationKind(.refundReversed)
        case .consumptionRequested:
            // T CONSUMPTION_REQUEST: the customer asked for a refund; the App Store asks
            // for consumption data (`data.consumptionRequestReason`).
            return NotificationKind(.consumptionRequest)
        case .renewalExtended:
            // T RENEWAL_EXTENDED: the renewal date of one subscription was extended, by Extend
            // a Subscription Renewal Date or for all active subscribers.
            return NotificationKind(.renewalExtended)
        case .renewalExtensionSummary:
            // T RENEWAL_EXTENSION + S SUMMARY: an extension for all active subscribers
            // finished; the payload has `summary`, not `data`.
            return NotificationKind(.renewalExtension, .summary)
        case .renewalExtensionFailed:
            // T RENEWAL_EXTENSION + S FAILURE: that extension failed for one subscription,
            // which `data` describes.
            return NotificationKind(.renewalExtension, .failure)
        case .revoked:
            // T REVOKE: "A family member loses access to the subscription through Family
            // Sharing" (the purchaser refunded it or stopped sharing). Only family members'
            // copies are revoked: a purchaser's purchase taken back is refunded (REFUND).
            return NotificationKind(.revoke)
        }
    }
}
