import StoreKit2

/// How a store's records become StoreKit 2 payloads: the part of every payload that
/// does not change (the catalogue, the bundle id, the environment), shared by the store
/// and by every event's snapshot (`StoreEventSubject`), so an event keeps its records
/// and makes its payloads when they are read, the same way the store makes them now.
final class StorePayloads: Sendable, Equatable {
    let products: [StoreProduct]
    let groups: [String]
    let bundleIdentifier: String
    let environmentName: String

    init(configuration: StoreConfiguration, products: [StoreProduct], groups: [String]) {
        self.products = products
        self.groups = groups
        bundleIdentifier = configuration.app.bundleIdentifier
        environmentName = configuration.environment.rawValue
    }

    /// Two stores of the same app and environment make the same payloads.
    static func == (lhs: StorePayloads, rhs: StorePayloads) -> Bool {
        lhs === rhs || (lhs.bundleIdentifier == rhs.bundleIdentifier && lhs.environmentName == rhs.environmentName
                        && lhs.products == rhs.products && lhs.groups == rhs.groups)
    }

    /// What a transaction's payload needs of its customer besides the record (both fixed
    /// when the customer is added).
    struct Buyer: Sendable, Hashable {
        let storefront: Storefront
        let appTransactionId: UInt64

        init(_ customer: StoreCustomer) {
            storefront = customer.storefront
            appTransactionId = customer.appTransactionId
        }
    }

    /// The payload of one transaction, signed at `signedDate`.
    func transaction(_ transaction: StoreTransaction, of buyer: Buyer, signedDate: StoreInstant) -> JWSTransactionDecodedPayload {
        let product = products[Int(transaction.product)]
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = String(transaction.transactionId)
        payload.originalTransactionId = String(transaction.originalTransactionId)
        payload.bundleId = bundleIdentifier
        payload.productId = product.id
        if product.kind == .autoRenewableSubscription {
            payload.webOrderLineItemId = String(transaction.webOrderLineItemId)
            payload.subscriptionGroupIdentifier = product.group.map { groups[Int($0)] }
        }
        payload.purchaseDate = JWSDate(milliseconds: transaction.purchaseDate)
        payload.originalPurchaseDate = JWSDate(milliseconds: transaction.originalPurchaseDate)
        payload.expiresDate = transaction.expiresDate.map { JWSDate(milliseconds: $0) }
        payload.quantity = Int(transaction.quantity)
        payload.type = product.kind.appleType
        payload.appAccountToken = transaction.appAccountToken?.description
        payload.inAppOwnershipType = transaction.ownership.rawValue
        payload.signedDate = JWSDate(milliseconds: signedDate)
        payload.revocationDate = transaction.revocationDate.map { JWSDate(milliseconds: $0) }
        payload.revocationReason = transaction.revocationReason?.rawValue
        payload.isUpgraded = transaction.isUpgraded ? true : nil
        payload.offerType = transaction.offer?.type.rawValue
        payload.offerIdentifier = transaction.offer?.identifier
        payload.offerDiscountType = transaction.offer?.discountType.rawValue
        payload.environment = environmentName
        payload.storefront = buyer.storefront.countryCode
        payload.storefrontId = buyer.storefront.storefrontId
        payload.transactionReason = transaction.reason.rawValue
        payload.price = transaction.price
        payload.currency = buyer.storefront.currency
        payload.appTransactionId = String(buyer.appTransactionId)
        payload.revocationType = transaction.revocationType?.rawValue
        payload.revocationPercentage = transaction.revocationPercentage
        return payload
    }

    /// The renewal info of one subscription, signed at `signedDate`; `appAccountToken` is
    /// its latest transaction's.
    func renewalInfo(_ subscription: StoreSubscription, of buyer: Buyer, appAccountToken: AppAccountToken?,
                     signedDate: StoreInstant) -> JWSRenewalInfoDecodedPayload {
        var payload = JWSRenewalInfoDecodedPayload()
        payload.originalTransactionId = String(subscription.originalTransactionId)
        payload.autoRenewProductId = products[Int(subscription.autoRenewProduct)].id
        payload.productId = products[Int(subscription.product)].id
        payload.autoRenewStatus = subscription.autoRenewStatus ? 1 : 0
        payload.expirationIntent = subscription.expirationIntent?.rawValue
        payload.isInBillingRetryPeriod = subscription.status == .billingRetry || subscription.status == .billingGracePeriod
        payload.priceIncreaseStatus = subscription.priceIncreaseStatus?.rawValue
        payload.gracePeriodExpiresDate = subscription.gracePeriodExpiresDate.map { JWSDate(milliseconds: $0) }
        if subscription.offerPeriodsLeft > 0, let offer = subscription.renewalOffer {
            payload.offerType = offer.type.rawValue
            payload.offerIdentifier = offer.identifier
            payload.offerDiscountType = offer.discountType.rawValue
        }
        payload.signedDate = JWSDate(milliseconds: signedDate)
        payload.environment = environmentName
        payload.recentSubscriptionStartDate = JWSDate(milliseconds: subscription.recentSubscriptionStartDate)
        if subscription.status != .expired && subscription.status != .revoked {
            payload.renewalDate = JWSDate(milliseconds: subscription.expiresDate)
        }
        payload.currency = buyer.storefront.currency
        payload.renewalPrice = subscription.renewalPrice
        payload.appAccountToken = appAccountToken?.description
        payload.appTransactionId = String(buyer.appTransactionId)
        return payload
    }
}
