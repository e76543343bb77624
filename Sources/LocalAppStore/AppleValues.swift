import AppInput

// The values the App Store Server API writes, with Apple's raw values (the Python
// client's `models/`: Status, ExpirationIntent, PriceIncreaseStatus, OfferType,
// OfferDiscountType, RevocationReason, InAppOwnershipType, TransactionReason, Type,
// ExtendReasonCode, ConsumptionRequestReason, DeliveryStatus, RefundPreference).

/// A subscription's status (`Status`).
public enum SubscriptionStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case billingGracePeriod = 4
    case revoked = 5
}

/// Why a subscription expired (`ExpirationIntent`).
public enum ExpirationIntent: Int, Sendable, Hashable, Codable, CaseIterable {
    case customerCancelled = 1
    case billingError = 2
    case customerDidNotConsentToPriceIncrease = 3
    case productNotAvailable = 4
    case other = 5
}

/// `PriceIncreaseStatus`.
public enum PriceIncreaseStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    case customerHasNotResponded = 0
    case customerConsentedOrWasNotifiedWithoutNeedingConsent = 1
}

/// `OfferType`.
public enum OfferType: Int, Sendable, Hashable, Codable, CaseIterable {
    case introductoryOffer = 1
    case promotionalOffer = 2
    case offerCode = 3
    case winBackOffer = 4
}

/// `OfferDiscountType`.
public enum OfferDiscountType: String, Sendable, Hashable, Codable, CaseIterable {
    case freeTrial = "FREE_TRIAL"
    case payAsYouGo = "PAY_AS_YOU_GO"
    case payUpFront = "PAY_UP_FRONT"
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
    case refundedForOtherReason = 0
    case refundedDueToIssue = 1
}

/// `InAppOwnershipType`.
public enum OwnershipType: String, Sendable, Hashable, Codable, CaseIterable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"
}

/// `TransactionReason`.
public enum TransactionReason: String, Sendable, Hashable, Codable, CaseIterable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}

/// `ExtendReasonCode`.
public enum ExtendReasonCode: Int, Sendable, Hashable, Codable, CaseIterable {
    case undeclared = 0
    case customerSatisfaction = 1
    case other = 2
    case serviceIssueOrOutage = 3
}

/// `ConsumptionRequestReason`: why the customer asked for a refund.
public enum ConsumptionRequestReason: String, Sendable, Hashable, Codable, CaseIterable {
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    case legal = "LEGAL"
    case other = "OTHER"
}

/// `DeliveryStatus` of Send Consumption Information (v2).
public enum DeliveryStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case delivered = "DELIVERED"
    case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
    case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
    case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
    case undeliveredOther = "UNDELIVERED_OTHER"
}

/// `RefundPreference` of Send Consumption Information (v2).
public enum RefundPreference: String, Sendable, Hashable, Codable, CaseIterable {
    case decline = "DECLINE"
    case grantFull = "GRANT_FULL"
    case grantProrated = "GRANT_PRORATED"
}

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
