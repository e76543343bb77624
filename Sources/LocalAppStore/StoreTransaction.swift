/// An offer a transaction was bought or renewed with (`offerType`, `offerIdentifier`,
/// `offerDiscountType`).
public struct TransactionOffer: Sendable, Hashable, Codable {
    public var type: OfferType
    /// The promotional offer, offer code or win-back offer id; nil for introductory offers.
    public var identifier: String?
    public var discountType: OfferDiscountType

    public init(type: OfferType, identifier: String? = nil, discountType: OfferDiscountType) {
        self.type = type
        self.identifier = identifier
        self.discountType = discountType
    }
}

/// What the developer's server sent with Send Consumption Information (v2).
public struct ConsumptionInformation: Sendable, Hashable, Codable {
    public var customerConsented: Bool
    public var sampleContentProvided: Bool
    public var deliveryStatus: DeliveryStatus
    /// Milli-units of a percent: 0 to 100 000.
    public var consumptionPercentage: Int?
    public var refundPreference: RefundPreference?
    /// When the store received it.
    public var receivedDate: StoreInstant

    public init(customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: DeliveryStatus,
                consumptionPercentage: Int? = nil, refundPreference: RefundPreference? = nil, receivedDate: StoreInstant = 0) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
        self.receivedDate = receivedDate
    }
}

/// A refund the customer asked for and the App Store has not decided yet.
public struct RefundRequest: Sendable, Hashable, Codable {
    public var reason: ConsumptionRequestReason
    public var requestDate: StoreInstant
}

/// One transaction: a purchase, a renewal, or a family member's copy of either. Ids
/// are numbers here (written as strings, as Apple does), the customer and product
/// indices into the store's tables, so a transaction holds no allocation of its own
/// in the common case.
public struct StoreTransaction: Sendable, Hashable {
    public internal(set) var transactionId: UInt64
    public internal(set) var originalTransactionId: UInt64
    /// 0 for anything but auto-renewable subscriptions.
    public internal(set) var webOrderLineItemId: UInt64
    /// The order (Look Up Order ID); 0 for a family member's copy, which nobody ordered.
    public internal(set) var orderId: UInt64
    public internal(set) var customer: Int32
    public internal(set) var product: Int32
    public internal(set) var purchaseDate: StoreInstant
    public internal(set) var originalPurchaseDate: StoreInstant
    public internal(set) var expiresDate: StoreInstant?
    public internal(set) var quantity: Int32
    public internal(set) var ownership: OwnershipType
    public internal(set) var reason: TransactionReason
    public internal(set) var offer: TransactionOffer?
    public internal(set) var price: Int64
    public internal(set) var appAccountToken: AppAccountToken?
    public internal(set) var revocationDate: StoreInstant?
    public internal(set) var revocationReason: RevocationReason?
    public internal(set) var isUpgraded: Bool
    /// Finish Transaction was called (or the app finished it).
    public internal(set) var finished: Bool
    /// For a family member's copy: the purchaser's transaction.
    public internal(set) var sharedFrom: UInt64?
    public internal(set) var refundRequest: RefundRequest?
    public internal(set) var consumption: ConsumptionInformation?

    public var isRevoked: Bool { revocationDate != nil }
}

/// A customer: one Apple account using the app.
public struct StoreCustomer: Sendable, Hashable {
    public let id: String
    public let storefront: Storefront
    /// The app transaction's id (`appTransactionId`).
    public let appTransactionId: UInt64
    /// When the customer first got the app (the app transaction's `originalPurchaseDate`).
    public let firstDownloadDate: StoreInstant
    /// Indices of the customer's transactions in `StoreState.transactions`, oldest first.
    public internal(set) var transactions: [Int32]
}

/// A customer's subscription in one group (one per original transaction id): what
/// renewal info and Get All Subscription Statuses report.
public struct StoreSubscription: Sendable, Hashable {
    public internal(set) var originalTransactionId: UInt64
    public internal(set) var customer: Int32
    public internal(set) var group: Int32
    public internal(set) var ownership: OwnershipType
    /// For a family member's copy: the purchaser's subscription (its index).
    public internal(set) var sharedFrom: Int32?
    /// The family members' copies of this subscription (their indices).
    public internal(set) var familyCopies: [Int32]
    /// The product of the current (latest) period.
    public internal(set) var product: Int32
    /// The product the next renewal is for (`autoRenewProductId`): another one when a
    /// downgrade or crossgrade is pending.
    public internal(set) var autoRenewProduct: Int32
    public internal(set) var autoRenewStatus: Bool
    public internal(set) var status: SubscriptionStatus
    /// The latest transaction (index into `StoreState.transactions`).
    public internal(set) var latestTransaction: Int32
    /// The end of the current period, renewal extensions included.
    public internal(set) var expiresDate: StoreInstant
    public internal(set) var recentSubscriptionStartDate: StoreInstant
    public internal(set) var gracePeriodExpiresDate: StoreInstant?
    /// The end of the billing retry period (60 days after the failed renewal).
    public internal(set) var billingRetryEndDate: StoreInstant?
    public internal(set) var expirationIntent: ExpirationIntent?
    public internal(set) var priceIncreaseStatus: PriceIncreaseStatus?
    /// The price of the next renewal (milli-units).
    public internal(set) var renewalPrice: Int64
    /// The next renewal fails (`failRenewal(…, when: .atNextRenewal)`), with a grace period or not.
    public internal(set) var pendingBillingFailure: BillingFailure?
    /// The offer the remaining offer periods are renewed with, and how many remain.
    public internal(set) var renewalOffer: TransactionOffer?
    public internal(set) var offerPeriodsLeft: Int32
    /// When the renewal date was extended (at most two within 365 days).
    public internal(set) var extensionDates: [StoreInstant]
    /// Bumped at every change of its due date, so the due queue skips stale entries.
    var dueGeneration: UInt32

    /// A renewal that fails: with a billing grace period first, or straight into billing retry.
    public enum BillingFailure: String, Sendable, Hashable, Codable {
        case billingRetry
        case gracePeriod
    }
}
