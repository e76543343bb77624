/// A signed transaction's payload (App Store Server API `JWSTransactionDecodedPayload`),
/// with the field names and JSON types the App Store sends: string ids, integer
/// millisecond dates, `price` in milli-units of `currency`.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// The transaction's identifier.
    public var transactionId: String?
    /// The first transaction of a subscription's renewals or of a restore.
    public var originalTransactionId: String?
    /// The identifier of a subscription period, across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier: what Apple's verifier compares.
    public var bundleId: String?
    /// The product bought.
    public var productId: String?
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged (for a renewal, when it renewed).
    public var purchaseDate: JWSDate?
    /// When the original transaction was bought.
    public var originalPurchaseDate: JWSDate?
    /// When the subscription period ends.
    public var expiresDate: JWSDate?
    /// How many consumables were bought.
    public var quantity: Int?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: String?
    /// The UUID the app attached to the purchase to tie it to its own account.
    public var appAccountToken: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// When the App Store signed the payload.
    public var signedDate: JWSDate?
    /// Why the App Store refunded or revoked: 0 another reason, 1 an issue in the app.
    public var revocationReason: Int?
    /// When the App Store refunded or revoked the transaction.
    public var revocationDate: JWSDate?
    /// True when the customer upgraded to another subscription of the group.
    public var isUpgraded: Bool?
    /// 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    /// The promotional offer or offer code name.
    public var offerIdentifier: String?
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`: what Apple's verifier compares.
    public var environment: String?
    /// The storefront's ISO 3166-1 alpha-3 country code.
    public var storefront: String?
    /// The App Store's identifier of the storefront.
    public var storefrontId: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// The price, in milli-units of `currency`.
    public var price: Int64?
    /// The ISO 4217 currency of `price`.
    public var currency: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT` or `ONE_TIME`: how the offer is paid.
    public var offerDiscountType: String?
    /// The customer's unique identifier for the app.
    public var appTransactionId: String?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`: how a revoked transaction was taken back (API 1.19).
    public var revocationType: String?
    /// The share refunded, in milli-units of a percent (100000: all of it).
    public var revocationPercentage: Int?

    /// A payload with every field absent, to fill in.
    public init() {}
}
