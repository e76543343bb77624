import AppInput
import ReceiptForge

/// The receipt's view of the store: the in-app records a receipt minted now for a
/// customer holds, in the app description's terms, so the receipt forge mints a
/// receipt that agrees with the Server API (same ids, products, dates, cancellations).
extension StoreState {
    /// Receipts (and history v1) leave out consumables the app finished, unless refunded.
    func appearsInReceipt(_ transaction: StoreTransaction) -> Bool {
        !(product(transaction.product).kind == .consumable && transaction.finished && !transaction.isRevoked)
    }

    /// The customer's in-app records, oldest first. Dates are whole seconds (receipts
    /// have no milliseconds): the payloads' milliseconds divided by 1000, rounded down.
    public func receiptPurchases(customer customerId: String) throws(StoreError) -> [PurchaseDescription] {
        let customer = try customerIndex(customerId)
        return customers[Int(customer)].transactions.map { transactions[Int($0)] }.filter(appearsInReceipt).map { transaction in
            let product = product(transaction.product)
            let subscription = product.kind == .autoRenewableSubscription
            let intro = transaction.offer?.type == .introductoryOffer
            return PurchaseDescription(
                productID: product.id, kind: product.kind, quantity: Int64(transaction.quantity),
                transactionID: String(transaction.transactionId), originalTransactionID: String(transaction.originalTransactionId),
                purchaseDate: Self.seconds(transaction.purchaseDate),
                originalPurchaseDate: Self.seconds(transaction.originalPurchaseDate),
                expiresDate: transaction.expiresDate.map(Self.seconds),
                cancellationDate: transaction.revocationDate.map(Self.seconds),
                cancellationReason: transaction.revocationReason?.rawValue,
                isTrialPeriod: intro && transaction.offer?.discountType == .freeTrial,
                isInIntroOfferPeriod: intro && transaction.offer?.discountType != .freeTrial,
                webOrderLineItemID: subscription ? Int64(transaction.webOrderLineItemId) : 0,
                promotionalOfferID: transaction.offer?.type == .promotionalOffer ? transaction.offer?.identifier : nil)
        }
    }

    /// The app, as the receipt forge takes it, with the customer's records as its purchases.
    public func receiptApp(customer customerId: String) throws(StoreError) -> AppDescription {
        var app = configuration.app
        app.environment = configuration.environment
        app.purchases = .explicit(try receiptPurchases(customer: customerId))
        return app
    }

    /// The receipt forge that mints the receipt an app on the customer's device would
    /// hold at the store's current instant: created now (to the second), signed by the
    /// committed test authority with the store's seed, its in-app records the customer's
    /// (`receiptPurchases`). A clock past what the test certificates cover (2089) is
    /// refused. Minting is left to the caller, outside the store's lock.
    public func receiptForge(customer customerId: String) throws(StoreError) -> Forge {
        let app = try receiptApp(customer: customerId)
        let settings = ForgeSettings(creationDate: Self.seconds(now), seed: configuration.seed)
        guard ForgeSettings.allowedNow.contains(settings.now) else {
            throw StoreError(.invalidState, field: "now",
                             "the store's clock (\(now) ms) is past what the receipt forge's test certificates cover")
        }
        return Forge(app: app, settings: settings)
    }

    /// Milliseconds to whole seconds, rounded down.
    static func seconds(_ milliseconds: StoreInstant) -> Int64 {
        milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds - 999) / 1_000
    }
}
