/// An offer a transaction was bought or renewed with (`offerType`, `offerIdentifier`,
/// `offerDiscountType`).
public struct TransactionOffer: Sendable, Hashable, Codable {
    /// Introductory, promotional, offer code or win-back.
    public var type: OfferType
    /// The promotional offer, offer code or win-back offer id; nil for introductory offers.
    public var identifier: String?
    /// How the customer pays for the offer.
    public var discountType: OfferDiscountType

    /// An offer from its fields.
    public init(type: OfferType, identifier: String? = nil, discountType: OfferDiscountType) {
        self.type = type
        self.identifier = identifier
        self.discountType = discountType
    }
}

/// What the developer's server sent with Send Consumption Information (v2).
public struct ConsumptionInformation: Sendable, Hashable, Codable {
    /// The customer consented to share the information (Apple ignores it otherwise).
    public var customerConsented: Bool
    /// The customer got sample content before buying.
    public var sampleContentProvided: Bool
    /// Whether the purchase was delivered and works.
    public var deliveryStatus: DeliveryStatus
    /// Milli-units of a percent: 0 to 100 000.
    public var consumptionPercentage: Int?
    /// What the developer would like: grant or decline the refund.
    public var refundPreference: RefundPreference?
    /// When the store received it.
    public var receivedDate: StoreInstant

    /// Consumption information from its fields.
    public init(customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: DeliveryStatus,
                consumptionPercentage: Int? = nil, refundPreference: RefundPreference? = nil, receivedDate: StoreInstant = 0) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
        self.receivedDate = receivedDate
    }

    /// Which Send Consumption Information request the information came with: each has its rules.
    public enum Request: Sendable, Hashable {
        /// `ConsumptionRequestV1` (deprecated): consumables and auto-renewable subscriptions only.
        case v1
        /// `ConsumptionRequest`: any product type; no percentage for an auto-renewable
        /// subscription, 0 when the purchase was not delivered.
        case v2
    }
}

/// A refund the customer asked for and the App Store has not decided yet.
public struct RefundRequest: Sendable, Hashable, Codable {
    /// Why the customer asked for the refund.
    public var reason: ConsumptionRequestReason
    /// When the customer asked.
    public var requestDate: StoreInstant
}

/// One transaction: a purchase, a renewal, or a family member's copy of either. Ids
/// are numbers here (written as strings, as Apple does), the customer and product
/// indices into the store's tables, so a transaction holds no allocation of its own
/// in the common case.
public struct StoreTransaction: Sendable, Hashable {
    /// The transaction's identifier.
    public internal(set) var transactionId: UInt64
    /// The first transaction of a renewal chain or restore; its own id for a first purchase.
    public internal(set) var originalTransactionId: UInt64
    /// 0 for anything but auto-renewable subscriptions.
    public internal(set) var webOrderLineItemId: UInt64
    /// The order (Look Up Order ID); 0 for a family member's copy, which nobody ordered.
    public internal(set) var orderId: UInt64
    /// The customer, an index into `StoreState.customers`.
    package internal(set) var customer: Int32
    /// The product, an index into the store's products.
    package internal(set) var product: Int32
    /// When the App Store charged (for a renewal, when the period started).
    public internal(set) var purchaseDate: StoreInstant
    /// When the original transaction was bought.
    public internal(set) var originalPurchaseDate: StoreInstant
    /// When the subscription period ends; nil for anything but subscriptions.
    public internal(set) var expiresDate: StoreInstant?
    /// How many were bought.
    public internal(set) var quantity: Int32
    /// Purchased, or family shared.
    public internal(set) var ownership: OwnershipType
    /// A purchase or a renewal.
    public internal(set) var reason: TransactionReason
    /// The offer the transaction was bought or renewed with, if any.
    public internal(set) var offer: TransactionOffer?
    /// The price, in milli-units of the storefront's currency.
    public internal(set) var price: Int64
    /// The UUID the app attached to the purchase, if any.
    public internal(set) var appAccountToken: AppAccountToken?
    /// When the App Store refunded or revoked the transaction.
    public internal(set) var revocationDate: StoreInstant?
    /// Why the App Store refunded or revoked it.
    public internal(set) var revocationReason: RevocationReason?
    /// The share of a prorated refund, in milli-units of a percent (1 to 99999); nil for a
    /// refund of the whole, a revocation, or none.
    public internal(set) var proratedShare: Int32? = nil
    /// True when the customer upgraded to another subscription of the group after this one.
    public internal(set) var isUpgraded: Bool
    /// Finish Transaction was called (or the app finished it).
    public internal(set) var finished: Bool
    /// For a family member's copy: the purchaser's transaction.
    public internal(set) var sharedFrom: UInt64?
    /// The refund the customer asked for and the App Store has not decided yet.
    public internal(set) var refundRequest: RefundRequest?
    /// What the developer's server sent with Send Consumption Information.
    public internal(set) var consumption: ConsumptionInformation?

    /// True when the transaction was refunded or revoked.
    public var isRevoked: Bool { revocationDate != nil }

    /// How a revoked transaction was taken back: a family member's copy is `FAMILY_REVOKE`
    /// (REVOKE: "A family member loses access to the subscription through Family Sharing"),
    /// the purchaser's own a refund, of the whole or prorated (`proratedShare`).
    public var revocationType: RevocationType? {
        guard isRevoked else { return nil }
        if ownership == .familyShared { return .familyRevoke }
        return proratedShare == nil ? .refundFull : .refundProrated
    }

    /// The share taken back, in milli-units of a percent (revocationPercentage: "The
    /// percentage, in milliunits, of the transaction that the App Store has refunded or
    /// revoked"; "This field doesn't appear if the refund is reversed"): a prorated
    /// refund's share, else all of it (refunded in full, or revoked from a family member).
    public var revocationPercentage: Int? {
        guard isRevoked else { return nil }
        return proratedShare.map(Int.init) ?? 100_000
    }
}

/// A customer: one Apple account using the app.
public struct StoreCustomer: Sendable, Hashable {
    /// The customer's id, unique in the store.
    public let id: String
    /// The storefront the customer buys in.
    public let storefront: Storefront
    /// The app transaction's id (`appTransactionId`).
    public let appTransactionId: UInt64
    /// When the customer first got the app (the app transaction's `originalPurchaseDate`).
    public let firstDownloadDate: StoreInstant
    /// Indices of the customer's transactions in `StoreState.transactions`, oldest first.
    package internal(set) var transactions: [Int32]
}

/// A customer's subscription in one group (one per original transaction id): what
/// renewal info and Get All Subscription Statuses report.
public struct StoreSubscription: Sendable, Hashable {
    /// The original transaction id: the subscription's key.
    public internal(set) var originalTransactionId: UInt64
    /// The customer, an index into `StoreState.customers`.
    package internal(set) var customer: Int32
    /// The subscription group, an index into the store's groups.
    package internal(set) var group: Int32
    /// Purchased, or family shared.
    public internal(set) var ownership: OwnershipType
    /// For a family member's copy: the purchaser's subscription (its index).
    package internal(set) var sharedFrom: Int32?
    /// The family members' copies of this subscription (their indices).
    package internal(set) var familyCopies: [Int32]
    /// The product of the current (latest) period.
    package internal(set) var product: Int32
    /// The product the next renewal is for (`autoRenewProductId`): another one when a
    /// downgrade or crossgrade is pending.
    package internal(set) var autoRenewProduct: Int32
    /// True while the subscription renews at the end of the period.
    public internal(set) var autoRenewStatus: Bool
    /// Active, expired, in billing retry, in grace period or revoked.
    public internal(set) var status: SubscriptionStatus
    /// The latest transaction (index into `StoreState.transactions`).
    package internal(set) var latestTransaction: Int32
    /// The end of the current period, renewal extensions included.
    public internal(set) var expiresDate: StoreInstant
    /// The start of the latest run of renewals without a gap of more than 60 days.
    public internal(set) var recentSubscriptionStartDate: StoreInstant
    /// When the billing grace period ends, while in it.
    public internal(set) var gracePeriodExpiresDate: StoreInstant?
    /// The end of the billing retry period (60 days after the failed renewal).
    public internal(set) var billingRetryEndDate: StoreInstant?
    /// Why the subscription expired, once it has.
    public internal(set) var expirationIntent: ExpirationIntent?
    /// Whether the customer answered a price increase.
    public internal(set) var priceIncreaseStatus: PriceIncreaseStatus?
    /// The price of the next renewal (milli-units).
    public internal(set) var renewalPrice: Int64
    /// The next renewal fails (`failRenewal(…, when: .atNextRenewal)`), with a grace period or not.
    public internal(set) var pendingBillingFailure: BillingFailure?
    /// The offer the remaining offer periods are renewed with, and how many remain.
    public internal(set) var renewalOffer: TransactionOffer?
    /// How many offer periods remain at `renewalOffer`.
    public internal(set) var offerPeriodsLeft: Int32
    /// When the renewal date was extended (at most two within 365 days).
    public internal(set) var extensionDates: [StoreInstant]
    /// Bumped at every change of its due date, so the due queue skips stale entries.
    var dueGeneration: UInt32

    /// A renewal that fails: with a billing grace period first, or straight into billing retry.
    public enum BillingFailure: String, Sendable, Hashable, Codable {
        /// The renewal fails into billing retry, with no grace period.
        case billingRetry
        /// The renewal fails into a billing grace period first, then billing retry.
        case gracePeriod
    }
}
