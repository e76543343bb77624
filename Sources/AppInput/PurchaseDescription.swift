/// One in-app purchase record (attribute 17) as the user describes it. Dates are
/// seconds since 1970; a nil identifier is drawn from the forge's seed.
public struct PurchaseDescription: Sendable, Hashable {
    public var productID: String
    public var kind: Product.Kind
    /// Attribute 1701.
    public var quantity: Int64
    /// Attribute 1703; nil: 15 digits drawn from the seed.
    public var transactionID: String?
    /// Attribute 1705; nil: the transaction id.
    public var originalTransactionID: String?
    /// Attribute 1704.
    public var purchaseDate: Int64
    /// Attribute 1706; nil: the purchase date.
    public var originalPurchaseDate: Int64?
    /// Attribute 1708 (auto-renewable subscriptions).
    public var expiresDate: Int64?
    /// Attribute 1712: refunded or cancelled by Apple support.
    public var cancellationDate: Int64?
    /// 0 (other) or 1 (an issue in the app), as verifyReceipt's `cancellation_reason`.
    /// App receipts have no attribute for it: kept for what is built from the
    /// description (case.json, a verifyReceipt look-alike), not encoded in the receipt.
    public var cancellationReason: Int?
    /// Attribute 1713.
    public var isTrialPeriod: Bool
    /// Attribute 1719.
    public var isInIntroOfferPeriod: Bool
    /// Attribute 1711; nil: 16 digits drawn from the seed for subscriptions, 0 otherwise.
    public var webOrderLineItemID: Int64?
    /// Attribute 1721.
    public var promotionalOfferID: String?

    public init(productID: String, kind: Product.Kind, quantity: Int64 = 1, transactionID: String? = nil,
                originalTransactionID: String? = nil, purchaseDate: Int64, originalPurchaseDate: Int64? = nil,
                expiresDate: Int64? = nil, cancellationDate: Int64? = nil, cancellationReason: Int? = nil,
                isTrialPeriod: Bool = false, isInIntroOfferPeriod: Bool = false, webOrderLineItemID: Int64? = nil,
                promotionalOfferID: String? = nil) {
        self.productID = productID
        self.kind = kind
        self.quantity = quantity
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.webOrderLineItemID = webOrderLineItemID
        self.promotionalOfferID = promotionalOfferID
    }
}
