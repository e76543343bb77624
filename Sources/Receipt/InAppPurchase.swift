import BER

/// One in-app purchase record (the value of an attribute 17): a typed view over its
/// own `SET OF ReceiptAttribute`, lossless like `AppReceipt`.
public struct InAppPurchase: ReceiptAttributeSet {
    /// Every attribute of the record, in the order received (or to be written); the typed properties read and write these.
    public var attributes: [ReceiptAttribute]

    /// A purchase record made of `attributes`, kept as given.
    public init(attributes: [ReceiptAttribute] = []) {
        self.attributes = attributes
    }

    /// Attribute type numbers inside an in-app purchase record.
    public enum Field {
        /// 1701: how many items were bought.
        public static let quantity: Int64 = 1701
        /// 1702: the product identifier.
        public static let productIdentifier: Int64 = 1702
        /// 1703: the transaction identifier.
        public static let transactionIdentifier: Int64 = 1703
        /// 1704: when the item was bought (for a renewal, when it renewed).
        public static let purchaseDate: Int64 = 1704
        /// 1705: the first transaction of a renewal chain or restore.
        public static let originalTransactionIdentifier: Int64 = 1705
        /// 1706: when the original transaction was bought.
        public static let originalPurchaseDate: Int64 = 1706
        /// 1707: the product type (undocumented; see `ProductType`).
        public static let productType: Int64 = 1707
        /// 1708: when an auto-renewable subscription period ends.
        public static let subscriptionExpirationDate: Int64 = 1708
        /// 1711: the web order line item identifier of a subscription period.
        public static let webOrderLineItemID: Int64 = 1711
        /// 1712: when Apple support refunded the purchase.
        public static let cancellationDate: Int64 = 1712
        /// 1713: 1 during a free trial.
        public static let isTrialPeriod: Int64 = 1713
        /// 1719: 1 during an introductory price period.
        public static let isInIntroOfferPeriod: Int64 = 1719
        /// 1721: the promotional offer redeemed, if any.
        public static let promotionalOfferIdentifier: Int64 = 1721
    }

    /// What each known attribute type's value holds, checked when a record is decoded.
    public static let knownValueKinds: [Int64: AttributeValueKind] = [
        Field.quantity: .integer, Field.productIdentifier: .utf8String, Field.transactionIdentifier: .utf8String,
        Field.purchaseDate: .date, Field.originalTransactionIdentifier: .utf8String,
        Field.originalPurchaseDate: .date, Field.productType: .integer, Field.subscriptionExpirationDate: .date,
        Field.webOrderLineItemID: .integer, Field.cancellationDate: .date, Field.isTrialPeriod: .integer,
        Field.isInIntroOfferPeriod: .integer, Field.promotionalOfferIdentifier: .utf8String,
    ]
    /// `knownValueKinds` as the decoder looks it up, built once.
    public static let valueKindTable = AttributeValueKindTable(knownValueKinds)

    /// Attribute 1707 values (undocumented).
    public enum ProductType: Int64, Sendable, CaseIterable {
        /// 0 non-consumable, 1 consumable, 2 non-renewing subscription, 3 auto-renewable subscription.
        case nonConsumable = 0, consumable = 1, nonRenewingSubscription = 2, autoRenewableSubscription = 3
    }

    /// Attribute 1701: how many items were bought.
    public var quantity: Int64? {
        get { integer(Field.quantity) }
        set { replace(Field.quantity, with: newValue.map { .integer(Field.quantity, $0) }) }
    }

    /// Attribute 1702: the product identifier.
    public var productIdentifier: String? {
        get { string(Field.productIdentifier, tag: .utf8String) }
        set { replace(Field.productIdentifier, with: newValue.map { .utf8String(Field.productIdentifier, $0) }) }
    }

    /// Attribute 1703: the transaction identifier.
    public var transactionIdentifier: String? {
        get { string(Field.transactionIdentifier, tag: .utf8String) }
        set { replace(Field.transactionIdentifier, with: newValue.map { .utf8String(Field.transactionIdentifier, $0) }) }
    }

    /// Attribute 1704: when the item was bought (for a renewal, when it renewed).
    public var purchaseDate: ReceiptDate? {
        get { date(Field.purchaseDate) }
        set { replace(Field.purchaseDate, with: newValue.map { .date(Field.purchaseDate, $0) }) }
    }

    /// Attribute 1705: the first transaction of a renewal chain or restore.
    public var originalTransactionIdentifier: String? {
        get { string(Field.originalTransactionIdentifier, tag: .utf8String) }
        set {
            replace(Field.originalTransactionIdentifier,
                    with: newValue.map { .utf8String(Field.originalTransactionIdentifier, $0) })
        }
    }

    /// Attribute 1706: when the original transaction was bought.
    public var originalPurchaseDate: ReceiptDate? {
        get { date(Field.originalPurchaseDate) }
        set { replace(Field.originalPurchaseDate, with: newValue.map { .date(Field.originalPurchaseDate, $0) }) }
    }

    /// Attribute 1707 as a raw integer (see `ProductType`).
    public var productType: Int64? {
        get { integer(Field.productType) }
        set { replace(Field.productType, with: newValue.map { .integer(Field.productType, $0) }) }
    }

    /// Empty (nil) for non-subscriptions.
    public var subscriptionExpirationDate: ReceiptDate? {
        get { date(Field.subscriptionExpirationDate) }
        set {
            replace(Field.subscriptionExpirationDate, with: .date(Field.subscriptionExpirationDate, newValue))
        }
    }

    /// Attribute 1711, a 64-bit integer.
    public var webOrderLineItemID: Int64? {
        get { integer(Field.webOrderLineItemID) }
        set { replace(Field.webOrderLineItemID, with: newValue.map { .integer(Field.webOrderLineItemID, $0) }) }
    }

    /// Usually empty (nil): set when Apple support refunded the purchase.
    public var cancellationDate: ReceiptDate? {
        get { date(Field.cancellationDate) }
        set { replace(Field.cancellationDate, with: .date(Field.cancellationDate, newValue)) }
    }

    /// Attribute 1713: true during a free trial.
    public var isTrialPeriod: Bool? {
        get { integer(Field.isTrialPeriod).map { $0 != 0 } }
        set { replace(Field.isTrialPeriod, with: newValue.map { .integer(Field.isTrialPeriod, $0 ? 1 : 0) }) }
    }

    /// Attribute 1719: true during an introductory price period.
    public var isInIntroOfferPeriod: Bool? {
        get { integer(Field.isInIntroOfferPeriod).map { $0 != 0 } }
        set {
            replace(Field.isInIntroOfferPeriod, with: newValue.map { .integer(Field.isInIntroOfferPeriod, $0 ? 1 : 0) })
        }
    }

    /// Attribute 1721: the promotional offer redeemed, if any.
    public var promotionalOfferIdentifier: String? {
        get { string(Field.promotionalOfferIdentifier, tag: .utf8String) }
        set {
            replace(Field.promotionalOfferIdentifier,
                    with: newValue.map { .utf8String(Field.promotionalOfferIdentifier, $0) })
        }
    }
}
