/// Something that happened in the store, in the order it happened: what App Store
/// Server Notifications (issue 26) are made from. Each names the store instant and the
/// ids involved; a family member's copy gets an event of its own.
public struct StoreEvent: Sendable, Hashable, Encodable {
    /// What happened, with the details its notification needs.
    public enum Kind: Sendable, Hashable {
        /// A purchase: a first subscription, a resubscription in the same group, or a one-time purchase.
        case purchased(resubscribe: Bool)
        /// A subscription renewed; `billingRecovery` when it renewed after a failed charge.
        case renewed(billingRecovery: Bool)
        /// A renewal charge failed, into a billing grace period or straight into billing retry.
        case failedToRenew(gracePeriod: Bool)
        /// The billing grace period ended without a successful charge.
        case gracePeriodExpired
        /// A subscription expired, for this reason.
        case expired(ExpirationIntent)
        /// The customer turned auto-renew on or off.
        case autoRenewChanged(enabled: Bool)
        /// The customer changed the product the subscription renews to.
        case renewalPreferenceChanged(RenewalChange)
        /// The App Store refunded a transaction, for this reason.
        case refunded(RevocationReason)
        /// The App Store declined a refund the customer asked for.
        case refundDeclined
        /// The App Store reversed a refund it had granted.
        case refundReversed
        /// The customer asked for a refund of a consumable; the App Store asks the developer for consumption information.
        case consumptionRequested(ConsumptionRequestReason)
        /// A subscription's renewal date was extended by `days` (by a single or a mass extension).
        case renewalExtended(days: Int, requestIdentifier: String)
        /// A mass extension finished: how many subscriptions it extended and how many it could not.
        case renewalExtensionSummary(requestIdentifier: String, succeeded: Int, failed: Int)
        /// A mass extension could not extend this subscription (it was not eligible).
        case renewalExtensionFailed(requestIdentifier: String)
        /// A family member lost access to a purchase they shared (the purchaser stopped
        /// sharing it, or it was refunded).
        case revoked
        /// A price increase was announced or the customer answered it.
        case priceIncrease(PriceIncreaseStatus)

        /// The kind's name in the state's JSON and the event log (`purchased`, `renewed`, …).
        public var name: String {
            switch self {
            case .purchased: return "purchased"
            case .renewed: return "renewed"
            case .failedToRenew: return "failedToRenew"
            case .gracePeriodExpired: return "gracePeriodExpired"
            case .expired: return "expired"
            case .autoRenewChanged: return "autoRenewChanged"
            case .renewalPreferenceChanged: return "renewalPreferenceChanged"
            case .refunded: return "refunded"
            case .refundDeclined: return "refundDeclined"
            case .refundReversed: return "refundReversed"
            case .consumptionRequested: return "consumptionRequested"
            case .renewalExtended: return "renewalExtended"
            case .renewalExtensionSummary: return "renewalExtensionSummary"
            case .renewalExtensionFailed: return "renewalExtensionFailed"
            case .revoked: return "revoked"
            case .priceIncrease: return "priceIncrease"
            }
        }
    }

    /// How the product a subscription renews to changed (`DID_CHANGE_RENEWAL_PREF`).
    public enum RenewalChange: String, Sendable, Hashable, Codable, CaseIterable {
        /// To a higher level: effective at once, the old transaction `isUpgraded`.
        case upgrade
        /// To a lower level: effective at the next renewal.
        case downgrade
        /// To the same level with the same period: effective at once.
        case crossgradeImmediate
        /// To the same level with another period: effective at the next renewal.
        case crossgradeAtRenewal
        /// Back to the current product: a pending downgrade or crossgrade withdrawn.
        case cancelled
    }

    /// 1, 2, 3 …: the event's place in the store's history.
    public let sequence: Int
    /// When it happened, in store time.
    public let date: StoreInstant
    /// What happened.
    public let kind: Kind
    /// The customer it happened to.
    public let customerId: String
    /// The product involved, if any.
    public let productId: String?
    /// The transaction involved, if any.
    public var transactionId: String? { transactionNumber.map { String($0) } }
    /// The original transaction (the subscription) involved, if any.
    public var originalTransactionId: String? { originalTransactionNumber.map { String($0) } }
    /// The ids as numbers: a store with 100,000 events keeps no id strings.
    let transactionNumber: UInt64?
    let originalTransactionNumber: UInt64?
    /// What the event is about, taken when it was recorded (not encoded: the state's JSON
    /// lists what happened; notifications carry the payloads).
    public let subject: StoreEventSubject?

    private enum CodingKeys: String, CodingKey {
        case sequence, date, type, customerId, productId, transactionId, originalTransactionId
        case resubscribe, billingRecovery, gracePeriod, expirationIntent, autoRenewStatus, change, revocationReason
        case consumptionRequestReason, extendByDays, requestIdentifier, succeededCount, failedCount, priceIncreaseStatus
    }

    /// Encodes the event as the state's JSON lists it: its type and the fields of its kind.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(date, forKey: .date)
        try container.encode(kind.name, forKey: .type)
        try container.encode(customerId, forKey: .customerId)
        try container.encodeIfPresent(productId, forKey: .productId)
        try container.encodeIfPresent(transactionId, forKey: .transactionId)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        switch kind {
        case .purchased(let resubscribe): try container.encode(resubscribe, forKey: .resubscribe)
        case .renewed(let recovery): try container.encode(recovery, forKey: .billingRecovery)
        case .failedToRenew(let grace): try container.encode(grace, forKey: .gracePeriod)
        case .expired(let intent): try container.encode(intent, forKey: .expirationIntent)
        case .autoRenewChanged(let enabled): try container.encode(enabled ? 1 : 0, forKey: .autoRenewStatus)
        case .renewalPreferenceChanged(let change): try container.encode(change, forKey: .change)
        case .refunded(let reason): try container.encode(reason, forKey: .revocationReason)
        case .consumptionRequested(let reason): try container.encode(reason, forKey: .consumptionRequestReason)
        case .renewalExtended(let days, let request):
            try container.encode(days, forKey: .extendByDays)
            try container.encode(request, forKey: .requestIdentifier)
        case .renewalExtensionSummary(let request, let succeeded, let failed):
            try container.encode(request, forKey: .requestIdentifier)
            try container.encode(succeeded, forKey: .succeededCount)
            try container.encode(failed, forKey: .failedCount)
        case .renewalExtensionFailed(let request): try container.encode(request, forKey: .requestIdentifier)
        case .priceIncrease(let status): try container.encode(status, forKey: .priceIncreaseStatus)
        case .gracePeriodExpired, .refundDeclined, .refundReversed, .revoked: break
        }
    }
}
