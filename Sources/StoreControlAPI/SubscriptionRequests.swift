import LocalAppStore
import StrictJSON

// The bodies of the verbs that act on an auto-renewable subscription, named by the
// purchaser's original transaction id.

/// `{"originalTransactionId"}`: forceRenewalOfSubscription,
/// recoverBilling, disable/enableAutoRenewForTransaction, acceptPriceIncrease.
struct SubscriptionRequest: Decodable {
    var originalTransactionId: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        originalTransactionId = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .originalTransactionId)
    }
}

/// `{"originalTransactionId", "reason"?}`: expireSubscription; `reason` is `voluntary`
/// (the default), `productNotForSale` or `other`.
struct ExpireSubscriptionRequest: Decodable {
    var originalTransactionId: String
    var reason: ExpirationReason

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, reason
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try members.decode(String.self, forKey: .originalTransactionId)
        reason = try members.optionalChoice(ExpirationReason.self, forKey: .reason) ?? .voluntary
    }
}

/// `{"originalTransactionId", "gracePeriod", "when"?}`; `when` is `now` (the default)
/// or `atNextRenewal`.
struct FailRenewalRequest: Decodable {
    var originalTransactionId: String
    var gracePeriod: Bool
    var when: BillingFailureTiming

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, gracePeriod, when
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try members.decode(String.self, forKey: .originalTransactionId)
        gracePeriod = try members.decode(Bool.self, forKey: .gracePeriod)
        when = try members.optionalChoice(BillingFailureTiming.self, forKey: .when) ?? .now
    }

    func apply(to state: inout StoreState) throws(StoreError) -> StoreActionResult {
        try state.failRenewal(originalTransactionId: originalTransactionId, gracePeriod: gracePeriod, when: when)
    }
}

/// `{"originalTransactionId", "productId"}`: an upgrade, downgrade or crossgrade.
struct ChangeRenewalProductRequest: Decodable {
    var originalTransactionId: String
    var productId: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, productId
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try members.decode(String.self, forKey: .originalTransactionId)
        productId = try members.decode(String.self, forKey: .productId)
    }

    func apply(to state: inout StoreState) throws(StoreError) -> StoreActionResult {
        try state.changeRenewalProduct(originalTransactionId: originalTransactionId, productId: productId)
    }
}

/// `{"originalTransactionId", "renewalPrice", "requiresConsent"?}`: the new price in
/// milli-units; with consent required (the default) the increase is pending until
/// `acceptPriceIncrease`.
struct PriceIncreaseRequest: Decodable {
    var originalTransactionId: String
    var renewalPrice: Int64
    var requiresConsent: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, renewalPrice, requiresConsent
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownMembers(CodingKeys.self)
        let members = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try members.decode(String.self, forKey: .originalTransactionId)
        renewalPrice = try members.decode(Int64.self, forKey: .renewalPrice)
        requiresConsent = try members.optional(Bool.self, forKey: .requiresConsent) ?? true
    }

    func apply(to state: inout StoreState) throws(StoreError) -> StoreActionResult {
        try state.priceIncrease(originalTransactionId: originalTransactionId, renewalPrice: renewalPrice, requiresConsent: requiresConsent)
    }
}
