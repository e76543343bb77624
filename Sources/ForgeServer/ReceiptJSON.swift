import Foundation
import Receipt

/// The decoded receipt as verifyReceipt writes it (VERIFYRECEIPT.md, "Response body"):
/// `receipt` with numbers where Apple sends numbers, every `in_app` value a string, every
/// date in its three forms; and, for auto-renewable subscriptions, `latest_receipt_info`
/// and `pending_renewal_info`.
package struct ReceiptJSON: Sendable {
    package let receipt: AppReceipt
    /// The time of the request (`request_date`, and whether a subscription is still active).
    package let now: Date

    /// The in-app purchase records, in receipt order (decoded once).
    package let purchases: [InAppPurchase]

    package init(_ receipt: AppReceipt, now: Date) {
        self.receipt = receipt
        self.now = now
        purchases = receipt.inAppPurchases
    }

    /// Attribute 0 as Apple names it in `receipt_type` (`Production` when absent).
    package var receiptType: String { receipt.environment ?? "Production" }

    /// A sandbox receipt: attribute 0 says `ProductionSandbox`, `ProductionVPPSandbox` or `Sandbox`.
    package var isSandbox: Bool { receiptType.hasSuffix("Sandbox") }

    /// The `receipt` object.
    package var object: ResponseJSON {
        var members: [(String, ResponseJSON)] = [
            ("receipt_type", .string(receiptType)),
            ("adam_id", .int(receipt.appItemID ?? 0)),
            ("app_item_id", .int(receipt.appItemID ?? 0)),
        ]
        if let bundle = receipt.bundleIdentifier { members.append(("bundle_id", .string(bundle))) }
        if let version = receipt.appVersion { members.append(("application_version", .string(version))) }
        // Neither is in the receipt file; Apple sends 0 for both in sandbox.
        members += [("download_id", .int(0)), ("version_external_identifier", .int(0))]
        if let creation = receipt.creationDate { members += AppleDate(creation).members("receipt_creation_date") }
        members += AppleDate(now).members("request_date")
        if let original = receipt.originalPurchaseDate { members += AppleDate(original).members("original_purchase_date") }
        if let version = receipt.originalApplicationVersion { members.append(("original_application_version", .string(version))) }
        if let expiration = receipt.expirationDate { members += AppleDate(expiration).members("expiration_date") }
        members.append(("in_app", .array(purchases.map { Self.entry($0) })))
        return .object(members)
    }

    /// The auto-renewable subscription transactions (attribute 1707 = 3, or with an
    /// expiry and no 1707), newest purchase first.
    package var subscriptionTransactions: [InAppPurchase] {
        purchases.filter(Self.isAutoRenewable).sorted { ($0.purchaseDate ?? .distantPast) > ($1.purchaseDate ?? .distantPast) }
    }

    package var hasAutoRenewableSubscriptions: Bool { purchases.contains(where: Self.isAutoRenewable) }

    /// `latest_receipt_info`: every subscription transaction, or with `excludeOld` only
    /// the latest renewal of each subscription (by original transaction id).
    package func latestReceiptInfo(excludeOld: Bool) -> ResponseJSON {
        let transactions = excludeOld ? latestRenewals : subscriptionTransactions
        return .array(transactions.map { Self.entry($0) })
    }

    /// The newest transaction of each subscription, newest first.
    var latestRenewals: [InAppPurchase] {
        var seen: Set<String> = []
        return subscriptionTransactions.filter { seen.insert(Self.subscriptionKey($0)).inserted }
    }

    /// `pending_renewal_info`: one entry per subscription. A subscription whose latest
    /// renewal is neither cancelled nor expired at `now` renews (`auto_renew_status` "1");
    /// one that has ended says why (`expiration_intent` "1": the customer cancelled or
    /// turned renewal off) and is not in a billing retry period.
    package var pendingRenewalInfo: ResponseJSON {
        let nowMilliseconds = AppleDate(now).milliseconds
        return .array(latestRenewals.map { latest in
            let expires = latest.subscriptionExpirationDate.map { AppleDate($0).milliseconds }
            let ended = latest.cancellationDate != nil || (expires.map { $0 <= nowMilliseconds } ?? false)
            var members: [(String, ResponseJSON)] = []
            if let product = latest.productIdentifier {
                members += [("auto_renew_product_id", .string(product)), ("product_id", .string(product))]
            }
            members.append(("original_transaction_id", .string(Self.subscriptionKey(latest))))
            members.append(("auto_renew_status", .string(ended ? "0" : "1")))
            if ended {
                members += [("expiration_intent", .string("1")), ("is_in_billing_retry_period", .string("0"))]
            }
            return .object(members)
        })
    }

    /// One `in_app` (or `latest_receipt_info`) entry: every value a string.
    static func entry(_ purchase: InAppPurchase) -> ResponseJSON {
        var members: [(String, ResponseJSON)] = []
        if let quantity = purchase.quantity { members.append(("quantity", .string(String(quantity)))) }
        if let product = purchase.productIdentifier { members.append(("product_id", .string(product))) }
        if let transaction = purchase.transactionIdentifier { members.append(("transaction_id", .string(transaction))) }
        if let original = purchase.originalTransactionIdentifier { members.append(("original_transaction_id", .string(original))) }
        if let date = purchase.purchaseDate { members += AppleDate(date).members("purchase_date") }
        if let date = purchase.originalPurchaseDate { members += AppleDate(date).members("original_purchase_date") }
        if let date = purchase.subscriptionExpirationDate { members += AppleDate(date).members("expires_date") }
        if let item = purchase.webOrderLineItemID { members.append(("web_order_line_item_id", .string(String(item)))) }
        members.append(("is_trial_period", .string(purchase.isTrialPeriod == true ? "true" : "false")))
        members.append(("is_in_intro_offer_period", .string(purchase.isInIntroOfferPeriod == true ? "true" : "false")))
        members.append(("in_app_ownership_type", .string("PURCHASED")))
        if let date = purchase.cancellationDate {
            members += AppleDate(date).members("cancellation_date")
            members.append(("cancellation_reason", .string("0")))
        }
        if let offer = purchase.promotionalOfferIdentifier { members.append(("promotional_offer_id", .string(offer))) }
        return .object(members)
    }

    static func isAutoRenewable(_ purchase: InAppPurchase) -> Bool {
        switch purchase.productType {
        case InAppPurchase.ProductType.autoRenewableSubscription.rawValue: return true
        case nil: return purchase.subscriptionExpirationDate != nil
        default: return false
        }
    }

    /// The original transaction id that groups a subscription's renewals (the
    /// transaction's own id when the receipt has none).
    static func subscriptionKey(_ purchase: InAppPurchase) -> String {
        purchase.originalTransactionIdentifier ?? purchase.transactionIdentifier ?? ""
    }
}

extension ReceiptDate {
    /// Sorts absent dates last.
    static let distantPast = ReceiptDate(secondsSince1970: -62_135_596_800)
}
