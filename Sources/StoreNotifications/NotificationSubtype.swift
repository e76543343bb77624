/// `subtype` of a V2 notification (Apple's `Subtype`,
/// https://developer.apple.com/documentation/appstoreservernotifications/subtype), those
/// the forge sends (Apple's UNREPORTED belongs to EXTERNAL_PURCHASE_TOKEN).
public enum NotificationSubtype: String, Sendable, Hashable, Codable, CaseIterable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case downgrade = "DOWNGRADE"
    case upgrade = "UPGRADE"
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case priceIncrease = "PRICE_INCREASE"
    case gracePeriod = "GRACE_PERIOD"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case billingRecovery = "BILLING_RECOVERY"
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    case summary = "SUMMARY"
    case failure = "FAILURE"
}
