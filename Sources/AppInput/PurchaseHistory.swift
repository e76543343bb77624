import ForgeSupport
/// Builds a plausible purchase history from an app's product catalogue, relative to
/// the receipt creation date:
/// - every consumable bought (quantities 1–3), every non-consumable and non-renewing
///   subscription bought once;
/// - every auto-renewable subscription bought and renewed period after period, the
///   latest period covering the creation date; renewals share the first transaction's
///   id and purchase date as their original ones, and each has its own web order line
///   item id; an introductory offer makes the first period a free trial (1713) or an
///   intro-offer period (1719);
/// - the oldest period of the last auto-renewable subscription refunded (1712 set,
///   cancellation reason 0), so the subscription stays active.
package struct PurchaseHistory {
    package let creation: Int64
    package static let day: Int64 = 86_400

    /// Regular periods before and including the one that covers the creation date.
    package static let regularPeriods = 3

    package init(creation: Int64) {
        self.creation = creation
    }

    package mutating func purchases(of catalogue: ProductCatalogue, random: inout DeterministicRandom) -> [PurchaseDescription] {
        var history: [PurchaseDescription] = []
        var lastSubscription: Range<Int>?
        for (index, product) in catalogue.products.enumerated() {
            let step = Int64(index % 15)
            switch product.kind {
            case .consumable:
                history.append(PurchaseDescription(productID: product.id, kind: .consumable, quantity: 1 + Int64(index % 3),
                                                   purchaseDate: creation - (20 - step) * Self.day - 3_600))
            case .nonConsumable:
                history.append(PurchaseDescription(productID: product.id, kind: .nonConsumable,
                                                   purchaseDate: creation - (40 + step) * Self.day))
            case .nonRenewingSubscription:
                history.append(PurchaseDescription(productID: product.id, kind: .nonRenewingSubscription,
                                                   purchaseDate: creation - (10 + step) * Self.day))
            case .autoRenewableSubscription:
                let start = history.count
                history += renewals(of: product, index: index, random: &random)
                lastSubscription = start..<history.count
            }
        }
        if let lastSubscription, let oldest = lastSubscription.first {
            history[oldest].cancellationDate = history[oldest].purchaseDate + Self.day
            history[oldest].cancellationReason = 0
        }
        return history
    }

    /// The periods of one subscription, oldest first.
    package func renewals(of product: Product, index: Int, random: inout DeterministicRandom) -> [PurchaseDescription] {
        let period = product.period ?? SubscriptionPeriod.oneMonth
        // Offer periods first, then the regular ones.
        var lengths: [(seconds: Int64, trial: Bool, intro: Bool)] = []
        if let offer = product.introductoryOffer {
            switch offer.paymentMode {
            case .free:
                lengths.append((offer.period.seconds * Int64(max(1, offer.periodCount)), true, false))
            case .payUpFront:
                lengths.append((offer.period.seconds * Int64(max(1, offer.periodCount)), false, true))
            case .payAsYouGo:
                lengths += Array(repeating: (offer.period.seconds, false, true), count: max(1, min(offer.periodCount, 12)))
            }
        }
        lengths += Array(repeating: (period.seconds, false, false), count: Self.regularPeriods)
        // The last period began a third of a period (at most two days) before creation.
        let lastStart = creation - min(period.seconds / 3, 2 * Self.day) - Int64(index % 5) * 3_600
        var starts = [lastStart]
        for length in lengths.dropLast().reversed() { starts.insert(starts[0] - length.seconds, at: 0) }

        let original = random.digits(15)
        let webOrderBase = Int64(random.digits(15))! * 10
        return lengths.indices.map { position in
            PurchaseDescription(
                productID: product.id, kind: .autoRenewableSubscription,
                transactionID: position == 0 ? original : random.digits(15),
                originalTransactionID: original,
                purchaseDate: starts[position], originalPurchaseDate: starts[0],
                expiresDate: starts[position] + lengths[position].seconds,
                isTrialPeriod: lengths[position].trial, isInIntroOfferPeriod: lengths[position].intro,
                webOrderLineItemID: webOrderBase + Int64(position))
        }
    }
}
