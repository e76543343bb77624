/// A signed renewal info's payload (App Store Server API `JWSRenewalInfoDecodedPayload`).
/// It carries no bundle id: Apple's verifier checks only its `environment`.
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    /// The subscription's original transaction: the renewal info's key.
    public var originalTransactionId: String?
    /// The product the subscription renews to next.
    public var autoRenewProductId: String?
    /// The product the current period is of.
    public var productId: String?
    /// 0 off, 1 on.
    public var autoRenewStatus: Int?
    /// 1 cancelled by the customer, 2 billing error, … (only after expiry).
    public var expirationIntent: Int?
    /// True while the App Store keeps retrying a failed renewal charge.
    public var isInBillingRetryPeriod: Bool?
    /// 0 the customer has not answered a price increase, 1 consented (or it needed no consent).
    public var priceIncreaseStatus: Int?
    /// When the billing grace period ends: service continues until then.
    public var gracePeriodExpiresDate: JWSDate?
    /// The offer of the next renewal: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    /// The promotional offer or offer code name of the next renewal.
    public var offerIdentifier: String?
    /// When the App Store signed the payload.
    public var signedDate: JWSDate?
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`: what Apple's verifier compares.
    public var environment: String?
    /// The start of the latest run of renewals without a gap of more than 60 days.
    public var recentSubscriptionStartDate: JWSDate?
    /// When the subscription next renews (or would have).
    public var renewalDate: JWSDate?
    /// The ISO 4217 currency of `renewalPrice`.
    public var currency: String?
    /// The next renewal's price, in milli-units of `currency`.
    public var renewalPrice: Int64?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`: the offer of the next renewal.
    public var offerDiscountType: String?
    /// The UUID the app attached to the purchase (Set App Account Token changes it).
    public var appAccountToken: String?
    /// The customer's unique identifier for the app.
    public var appTransactionId: String?

    /// A payload with every field absent, to fill in.
    public init() {}
}
