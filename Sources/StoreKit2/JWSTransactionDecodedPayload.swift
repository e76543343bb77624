/// A signed transaction's payload (App Store Server API `JWSTransactionDecodedPayload`),
/// with the field names and JSON types the App Store sends: string ids, integer
/// millisecond dates, `price` in milli-units of `currency`.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    public var transactionId: String?
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: JWSDate?
    public var originalPurchaseDate: JWSDate?
    public var expiresDate: JWSDate?
    public var quantity: Int?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: String?
    public var appAccountToken: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    public var signedDate: JWSDate?
    public var revocationReason: Int?
    public var revocationDate: JWSDate?
    public var isUpgraded: Bool?
    public var offerType: Int?
    public var offerIdentifier: String?
    public var environment: String?
    public var storefront: String?
    public var storefrontId: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    public var price: Int64?
    public var currency: String?
    public var offerDiscountType: String?
    public var appTransactionId: String?

    public init() {}
}
