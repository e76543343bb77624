/// `notificationType` of the App Store Server Notifications V2 the forge sends (Apple's
/// `NotificationTypeV2`, https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
/// Apple's EXTERNAL_PURCHASE_TOKEN, RESCIND_CONSENT, METADATA_UPDATE, MIGRATION and
/// PRICE_CHANGE are about things the store does not model, so they are not here.
public enum NotificationType: String, Sendable, Hashable, Codable, CaseIterable {
    case subscribed = "SUBSCRIBED"
    case didRenew = "DID_RENEW"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case expired = "EXPIRED"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case offerRedeemed = "OFFER_REDEEMED"
    case priceIncrease = "PRICE_INCREASE"
    case refund = "REFUND"
    case refundDeclined = "REFUND_DECLINED"
    case refundReversed = "REFUND_REVERSED"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case renewalExtended = "RENEWAL_EXTENDED"
    case renewalExtension = "RENEWAL_EXTENSION"
    case revoke = "REVOKE"
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case test = "TEST"
}
