import StoreKit2

/// The payload models of Apple's Python library (app-store-server-library 3.1.2) as
/// cattrs structures them: each field by its JSON name (an enum's raw field by the name
/// it is read from) and the type cattrs converts its value to. Fields this table lacks
/// are ignored, as cattrs ignores them. `AppleModelTests` checks the table against the
/// library in the oracle venv, field by field.
package struct AppleModel: Sendable {
    package indirect enum FieldType: Sendable {
        /// `str(value)`.
        case str
        /// `int(value)`.
        case int
        /// `bool(value)`.
        case bool
        /// Each element of an iterable, converted.
        case list(FieldType)
        /// Another model, from a JSON object (see `CattrsStructuring`).
        case model(AppleModel)
    }

    package let name: String
    package let fields: [(name: String, type: FieldType)]

    /// The model Apple's library structures a payload of `kind` into.
    package static func of(_ kind: JWSKind) -> AppleModel {
        switch kind {
        case .transaction: return transaction
        case .renewalInfo: return renewalInfo
        case .notification: return notification
        case .appTransaction: return appTransaction
        }
    }

    static let transaction = AppleModel(name: "JWSTransactionDecodedPayload", fields: [
        ("originalTransactionId", .str),
        ("transactionId", .str),
        ("webOrderLineItemId", .str),
        ("bundleId", .str),
        ("productId", .str),
        ("subscriptionGroupIdentifier", .str),
        ("purchaseDate", .int),
        ("originalPurchaseDate", .int),
        ("expiresDate", .int),
        ("quantity", .int),
        ("type", .str),
        ("appAccountToken", .str),
        ("inAppOwnershipType", .str),
        ("signedDate", .int),
        ("revocationReason", .int),
        ("revocationDate", .int),
        ("isUpgraded", .bool),
        ("offerType", .int),
        ("offerIdentifier", .str),
        ("environment", .str),
        ("storefront", .str),
        ("storefrontId", .str),
        ("transactionReason", .str),
        ("currency", .str),
        ("price", .int),
        ("offerDiscountType", .str),
        ("appTransactionId", .str),
        ("offerPeriod", .str),
        ("revocationType", .str),
        ("revocationPercentage", .int),
        ("advancedCommerceInfo", .model(.advancedCommerceTransactionInfo)),
        ("billingPlanType", .str),
        ("commitmentInfo", .model(.transactionCommitmentInfo)),
    ])
    static let advancedCommerceTransactionInfo = AppleModel(name: "AdvancedCommerceTransactionInfo", fields: [
        ("descriptors", .model(.advancedCommerceDescriptors)),
        ("estimatedTax", .int),
        ("items", .list(.model(.advancedCommerceTransactionItem))),
        ("period", .str),
        ("requestReferenceId", .str),
        ("taxCode", .str),
        ("taxExclusivePrice", .int),
        ("taxRate", .str),
    ])
    static let advancedCommerceDescriptors = AppleModel(name: "AdvancedCommerceDescriptors", fields: [
        ("description", .str),
        ("displayName", .str),
    ])
    static let advancedCommerceTransactionItem = AppleModel(name: "AdvancedCommerceTransactionItem", fields: [
        ("SKU", .str),
        ("description", .str),
        ("displayName", .str),
        ("offer", .model(.advancedCommerceOffer)),
        ("price", .int),
        ("refunds", .list(.model(.advancedCommerceRefund))),
        ("revocationDate", .int),
    ])
    static let advancedCommerceOffer = AppleModel(name: "AdvancedCommerceOffer", fields: [
        ("periodCount", .int),
        ("price", .int),
        ("period", .str),
        ("reason", .str),
    ])
    static let advancedCommerceRefund = AppleModel(name: "AdvancedCommerceRefund", fields: [
        ("refundAmount", .int),
        ("refundDate", .int),
        ("refundReason", .str),
        ("refundType", .str),
    ])
    static let transactionCommitmentInfo = AppleModel(name: "TransactionCommitmentInfo", fields: [
        ("billingPeriodNumber", .int),
        ("commitmentExpiresDate", .int),
        ("commitmentPrice", .int),
        ("totalBillingPeriods", .int),
    ])
    static let renewalInfo = AppleModel(name: "JWSRenewalInfoDecodedPayload", fields: [
        ("expirationIntent", .int),
        ("originalTransactionId", .str),
        ("autoRenewProductId", .str),
        ("productId", .str),
        ("autoRenewStatus", .int),
        ("isInBillingRetryPeriod", .bool),
        ("priceIncreaseStatus", .int),
        ("gracePeriodExpiresDate", .int),
        ("offerType", .int),
        ("offerIdentifier", .str),
        ("signedDate", .int),
        ("environment", .str),
        ("recentSubscriptionStartDate", .int),
        ("renewalDate", .int),
        ("currency", .str),
        ("renewalPrice", .int),
        ("offerDiscountType", .str),
        ("eligibleWinBackOfferIds", .list(.str)),
        ("appAccountToken", .str),
        ("appTransactionId", .str),
        ("offerPeriod", .str),
        ("advancedCommerceInfo", .model(.advancedCommerceRenewalInfo)),
        ("commitmentInfo", .model(.renewalCommitmentInfo)),
        ("renewalBillingPlanType", .str),
    ])
    static let advancedCommerceRenewalInfo = AppleModel(name: "AdvancedCommerceRenewalInfo", fields: [
        ("consistencyToken", .str),
        ("descriptors", .model(.advancedCommerceDescriptors)),
        ("items", .list(.model(.advancedCommerceRenewalItem))),
        ("period", .str),
        ("requestReferenceId", .str),
        ("taxCode", .str),
    ])
    static let advancedCommerceRenewalItem = AppleModel(name: "AdvancedCommerceRenewalItem", fields: [
        ("SKU", .str),
        ("description", .str),
        ("displayName", .str),
        ("offer", .model(.advancedCommerceOffer)),
        ("price", .int),
        ("priceIncreaseInfo", .model(.advancedCommercePriceIncreaseInfo)),
    ])
    static let advancedCommercePriceIncreaseInfo = AppleModel(name: "AdvancedCommercePriceIncreaseInfo", fields: [
        ("dependentSKUs", .list(.str)),
        ("price", .int),
        ("status", .str),
    ])
    static let renewalCommitmentInfo = AppleModel(name: "RenewalCommitmentInfo", fields: [
        ("commitmentAutoRenewProductId", .str),
        ("commitmentAutoRenewStatus", .int),
        ("commitmentRenewalBillingPlanType", .str),
        ("commitmentRenewalDate", .int),
        ("commitmentRenewalPrice", .int),
    ])
    static let notification = AppleModel(name: "ResponseBodyV2DecodedPayload", fields: [
        ("notificationType", .str),
        ("subtype", .str),
        ("notificationUUID", .str),
        ("data", .model(.data)),
        ("version", .str),
        ("signedDate", .int),
        ("summary", .model(.summary)),
        ("externalPurchaseToken", .model(.externalPurchaseToken)),
        ("appData", .model(.appData)),
    ])
    static let data = AppleModel(name: "Data", fields: [
        ("environment", .str),
        ("appAppleId", .int),
        ("bundleId", .str),
        ("bundleVersion", .str),
        ("signedTransactionInfo", .str),
        ("signedRenewalInfo", .str),
        ("status", .int),
        ("consumptionRequestReason", .str),
    ])
    static let summary = AppleModel(name: "Summary", fields: [
        ("environment", .str),
        ("appAppleId", .int),
        ("bundleId", .str),
        ("productId", .str),
        ("requestIdentifier", .str),
        ("storefrontCountryCodes", .list(.str)),
        ("succeededCount", .int),
        ("failedCount", .int),
    ])
    static let externalPurchaseToken = AppleModel(name: "ExternalPurchaseToken", fields: [
        ("externalPurchaseId", .str),
        ("tokenCreationDate", .int),
        ("appAppleId", .int),
        ("bundleId", .str),
    ])
    static let appData = AppleModel(name: "AppData", fields: [
        ("appAppleId", .int),
        ("bundleId", .str),
        ("environment", .str),
        ("signedAppTransactionInfo", .str),
    ])
    static let appTransaction = AppleModel(name: "AppTransaction", fields: [
        ("receiptType", .str),
        ("appAppleId", .int),
        ("bundleId", .str),
        ("applicationVersion", .str),
        ("versionExternalIdentifier", .int),
        ("receiptCreationDate", .int),
        ("originalPurchaseDate", .int),
        ("originalApplicationVersion", .str),
        ("deviceVerification", .str),
        ("deviceVerificationNonce", .str),
        ("preorderDate", .int),
        ("appTransactionId", .str),
        ("originalPlatform", .str),
    ])
}
