import AppInput

// The values the App Store Server API writes, with Apple's raw values (the Python
// client's `models/`: Status, ExpirationIntent, PriceIncreaseStatus, OfferType,
// OfferDiscountType, RevocationReason, InAppOwnershipType, TransactionReason, Type,
// ExtendReasonCode, ConsumptionRequestReason, DeliveryStatus, RefundPreference).

/// A subscription's status (`Status`).
public enum SubscriptionStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The subscription is in a paid or offer period.
    case active = 1
    /// The subscription ended.
    case expired = 2
    /// A renewal charge failed and the App Store keeps retrying; no service.
    case billingRetry = 3
    /// A renewal charge failed and the customer keeps service until the grace period ends.
    case billingGracePeriod = 4
    /// The App Store revoked the subscription (refund, or family sharing ended).
    case revoked = 5
}

/// Why a subscription expired (`ExpirationIntent`).
public enum ExpirationIntent: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The customer turned auto-renew off.
    case customerCancelled = 1
    /// The renewal charge kept failing until billing retry ended.
    case billingError = 2
    /// The customer did not consent to a price increase that needed consent.
    case customerDidNotConsentToPriceIncrease = 3
    /// The product was not available to renew when the period ended.
    case productNotAvailable = 4
    /// Any other reason.
    case other = 5
}

/// `PriceIncreaseStatus`.
public enum PriceIncreaseStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The customer has not answered a price increase that needs consent.
    case customerHasNotResponded = 0
    /// The customer consented, or the increase needed no consent.
    case customerConsentedOrWasNotifiedWithoutNeedingConsent = 1
}

/// `OfferType`.
public enum OfferType: Int, Sendable, Hashable, Codable, CaseIterable {
    /// An introductory offer.
    case introductoryOffer = 1
    /// A promotional offer.
    case promotionalOffer = 2
    /// An offer code.
    case offerCode = 3
    /// A win-back offer.
    case winBackOffer = 4
}

/// `OfferDiscountType`.
public enum OfferDiscountType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A free trial.
    case freeTrial = "FREE_TRIAL"
    /// A reduced price for each of several periods.
    case payAsYouGo = "PAY_AS_YOU_GO"
    /// One reduced payment for several periods.
    case payUpFront = "PAY_UP_FRONT"
    /// A one-time offer (offer codes of consumables and non-consumables).
    case oneTime = "ONE_TIME"

    init(_ mode: IntroductoryOffer.PaymentMode) {
        switch mode {
        case .free: self = .freeTrial
        case .payAsYouGo: self = .payAsYouGo
        case .payUpFront: self = .payUpFront
        }
    }
}

/// `RevocationReason`: why the App Store refunded or revoked a transaction.
public enum RevocationReason: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Apple refunded for a reason other than the app.
    case refundedForOtherReason = 0
    /// Apple refunded because of an actual or perceived issue in the app.
    case refundedDueToIssue = 1
}

/// `RevocationType` (App Store Server API 1.19): how a revoked transaction was taken back.
/// https://developer.apple.com/documentation/appstoreservernotifications/revocationtype
public enum RevocationType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple refunded the whole transaction.
    case refundFull = "REFUND_FULL"
    /// Apple refunded part of it (`revocationPercentage` says how much).
    case refundProrated = "REFUND_PRORATED"
    /// A family member lost the purchase they had through Family Sharing.
    case familyRevoke = "FAMILY_REVOKE"
}

/// `InAppOwnershipType`.
public enum OwnershipType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The customer bought it.
    case purchased = "PURCHASED"
    /// A family member shares it through Family Sharing.
    case familyShared = "FAMILY_SHARED"
}

/// `TransactionReason`.
public enum TransactionReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// A purchase (or an upgrade) by the customer.
    case purchase = "PURCHASE"
    /// An automatic renewal.
    case renewal = "RENEWAL"
}

/// `ExtendReasonCode`.
public enum ExtendReasonCode: Int, Sendable, Hashable, Codable, CaseIterable {
    /// No reason given.
    case undeclared = 0
    /// To keep the customer satisfied.
    case customerSatisfaction = 1
    /// Any other reason.
    case other = 2
    /// A service issue or outage.
    case serviceIssueOrOutage = 3
}

/// `ConsumptionRequestReason`: why the customer asked for a refund.
public enum ConsumptionRequestReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The customer bought by accident.
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    /// The purchase was not delivered or did not work.
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    /// The customer is unhappy with the purchase.
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    /// A legal reason.
    case legal = "LEGAL"
    /// Any other reason.
    case other = "OTHER"
}

/// `DeliveryStatus` of Send Consumption Information (v2).
public enum DeliveryStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The purchase was delivered and works.
    case delivered = "DELIVERED"
    /// Not delivered: a quality issue.
    case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
    /// Not delivered: the wrong item.
    case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
    /// Not delivered: a server outage.
    case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
    /// Not delivered: another reason.
    case undeliveredOther = "UNDELIVERED_OTHER"
}

/// `RefundPreference` of Send Consumption Information (v2).
public enum RefundPreference: String, Sendable, Hashable, Codable, CaseIterable {
    /// Decline the refund.
    case decline = "DECLINE"
    /// Grant a full refund.
    case grantFull = "GRANT_FULL"
    /// Grant a prorated refund.
    case grantProrated = "GRANT_PRORATED"
}

/// A product kind as Apple's payloads and history filters name it.
extension Product.Kind {
    /// The payload's `type` (Apple's `Type`).
    public var appleType: String {
        switch self {
        case .autoRenewableSubscription: return "Auto-Renewable Subscription"
        case .nonConsumable: return "Non-Consumable"
        case .consumable: return "Consumable"
        case .nonRenewingSubscription: return "Non-Renewing Subscription"
        }
    }

    /// The history filter's `productType` (`AUTO_RENEWABLE` …).
    public var historyFilterName: String {
        switch self {
        case .autoRenewableSubscription: return "AUTO_RENEWABLE"
        case .nonConsumable: return "NON_CONSUMABLE"
        case .consumable: return "CONSUMABLE"
        case .nonRenewingSubscription: return "NON_RENEWABLE"
        }
    }
}
