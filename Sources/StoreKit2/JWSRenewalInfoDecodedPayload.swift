/// A signed renewal info's payload (App Store Server API `JWSRenewalInfoDecodedPayload`).
/// It carries no bundle id: Apple's verifier checks only its `environment`.
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    /// 0 off, 1 on.
    public var autoRenewStatus: Int?
    /// 1 cancelled by the customer, 2 billing error, … (only after expiry).
    public var expirationIntent: Int?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: Int?
    public var gracePeriodExpiresDate: JWSDate?
    public var offerType: Int?
    public var offerIdentifier: String?
    public var signedDate: JWSDate?
    public var environment: String?
    public var recentSubscriptionStartDate: JWSDate?
    public var renewalDate: JWSDate?
    public var currency: String?
    public var renewalPrice: Int64?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`: the offer of the next renewal.
    public var offerDiscountType: String?
    /// The UUID the app attached to the purchase (Set App Account Token changes it).
    public var appAccountToken: String?
    public var appTransactionId: String?

    public init() {}
}
