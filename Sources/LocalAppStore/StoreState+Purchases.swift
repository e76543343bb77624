import AppInput

/// An offer a purchase redeems.
public enum StoreOffer: Sendable, Hashable {
    /// The product's introductory offer (free trial, pay as you go, pay up front): once per
    /// customer and subscription group.
    case introductory
    /// A promotional offer, by its id, paid as `discount` says.
    case promotional(id: String, discount: OfferDiscountType)
    /// An offer code, by its offer id, paid as `discount` says.
    case offerCode(id: String, discount: OfferDiscountType)
    /// A win-back offer, by its id, paid as `discount` says.
    case winBack(id: String, discount: OfferDiscountType)
}

extension StoreState {
    /// The most a consumable purchase may hold (StoreKit's purchase quantity limit).
    public static let maximumQuantity = 10

    /// SKTestSession's `buyProduct`: `customer` buys `productId` now. A new customer is
    /// created on first purchase. `familyShared` names family members who get a copy
    /// (non-consumables and auto-renewable subscriptions only). Buying an
    /// auto-renewable subscription the customer had before in the same group
    /// resubscribes (the original transaction id stays).
    @discardableResult
    public mutating func buyProduct(customer customerId: String, productId: String, quantity: Int = 1, offer: StoreOffer? = nil,
                                    appAccountToken: String? = nil, familyShared: [String] = [],
                                    storefront: Storefront = .usa) throws(StoreError) -> StoreActionResult {
        // Validate everything first.
        try Self.validateCustomerId(customerId, field: "customer")
        let productIndex = try productIndex(productId, field: "productId")
        let product = product(productIndex)
        switch product.kind {
        case .consumable:
            guard (1...Self.maximumQuantity).contains(quantity) else {
                throw StoreError(.invalidValue, field: "quantity", "\(quantity) is not between 1 and \(Self.maximumQuantity)")
            }
        default:
            guard quantity == 1 else {
                throw StoreError(.invalidValue, field: "quantity", "only consumables are bought in quantities; \(productId) is \(product.kind.rawValue)")
            }
        }
        let token: AppAccountToken?
        if let appAccountToken {
            guard let parsed = AppAccountToken(appAccountToken) else {
                throw StoreError(.invalidAppAccountToken, field: "appAccountToken", "'\(appAccountToken)' is not a UUID")
            }
            token = parsed
        } else {
            token = nil
        }
        let existingCustomer = customerIndex[customerId]
        var previous: Int32?
        if let group = product.group, let existingCustomer {
            previous = subscriptionByOwner[Self.ownerKey(customer: existingCustomer, group: group, ownership: .purchased)]
            if let previous, [.active, .billingGracePeriod, .billingRetry].contains(subscriptions[Int(previous)].status) {
                throw StoreError(.invalidState, field: "productId",
                                 "\(customerId) already subscribes in group \(groups[Int(group)]) (original transaction \(subscriptions[Int(previous)].originalTransactionId)); change the renewal product instead")
            }
        }
        if product.kind == .nonConsumable, let existingCustomer,
           customers[Int(existingCustomer)].transactions.contains(where: {
               let transaction = transactions[Int($0)]
               return transaction.product == productIndex && !transaction.isRevoked && transaction.ownership == .purchased
           }) {
            throw StoreError(.invalidState, field: "productId", "\(customerId) already owns the non-consumable \(productId)")
        }
        let transactionOffer = try validatedOffer(offer, product: product, customer: existingCustomer)
        if !familyShared.isEmpty {
            guard product.kind == .nonConsumable || product.kind == .autoRenewableSubscription else {
                throw StoreError(.familyTransactionNotSupported, field: "familyShared",
                                 "\(product.kind.rawValue) products cannot be shared with the family")
            }
            var seen = Set<String>()
            for member in familyShared {
                try Self.validateCustomerId(member, field: "familyShared")
                guard member != customerId else {
                    throw StoreError(.invalidValue, field: "familyShared", "the buyer \(member) is not their own family member")
                }
                guard seen.insert(member).inserted else {
                    throw StoreError(.invalidValue, field: "familyShared", "\(member) is named twice")
                }
            }
        }

        // Apply.
        var result = StoreActionResult()
        let customer = customer(creating: customerId, storefront: storefront)
        let storefrontPrice = transactionOffer.map { offerPrice(product.price, $0) } ?? product.price
        let orderId = newOrderId()
        result.orderId = orderIdText(orderId)
        if product.kind == .autoRenewableSubscription, let group = product.group {
            let length = firstPeriodLength(product, offer: transactionOffer)
            let resubscribe = previous != nil
            let original = previous.map { subscriptions[Int($0)] }
            let transactionId = newTransactionId()
            let originalId = original?.originalTransactionId ?? transactionId
            let originalPurchaseDate = original.map { transactions[Int($0.latestTransaction)].originalPurchaseDate } ?? now
            let index = append(StoreTransaction(
                transactionId: transactionId, originalTransactionId: originalId, webOrderLineItemId: newWebOrderLineItemId(),
                orderId: orderId, customer: customer, product: productIndex, purchaseDate: now, originalPurchaseDate: originalPurchaseDate,
                expiresDate: now + length, quantity: 1, ownership: .purchased, reason: .purchase, offer: transactionOffer,
                price: storefrontPrice, appAccountToken: token, revocationDate: nil, revocationReason: nil, isUpgraded: false,
                finished: false, sharedFrom: nil, refundRequest: nil, consumption: nil))
            var subscription = StoreSubscription(
                originalTransactionId: originalId, customer: customer, group: group, ownership: .purchased, sharedFrom: nil,
                familyCopies: original?.familyCopies ?? [], product: productIndex, autoRenewProduct: productIndex, autoRenewStatus: true,
                status: .active, latestTransaction: index, expiresDate: now + length, recentSubscriptionStartDate: now,
                gracePeriodExpiresDate: nil, billingRetryEndDate: nil, expirationIntent: nil, priceIncreaseStatus: nil,
                renewalPrice: product.price, pendingBillingFailure: nil, renewalOffer: nil, offerPeriodsLeft: 0,
                extensionDates: original?.extensionDates ?? [], dueGeneration: original?.dueGeneration ?? 0)
            if let transactionOffer, transactionOffer.type == .introductoryOffer, transactionOffer.discountType == .payAsYouGo,
               let intro = product.product.introductoryOffer, intro.periodCount > 1 {
                subscription.renewalOffer = transactionOffer
                subscription.offerPeriodsLeft = Int32(intro.periodCount - 1)
            }
            let subscriptionIndex: Int32
            if let previous {
                subscriptionIndex = previous
                subscriptions[Int(previous)] = subscription
            } else {
                subscriptionIndex = Int32(subscriptions.count)
                subscriptions.append(subscription)
                self.subscriptionIndex[originalId] = subscriptionIndex
                subscriptionByOwner[Self.ownerKey(customer: customer, group: group, ownership: .purchased)] = subscriptionIndex
            }
            result.transactionIds.append(String(transactionId))
            result.originalTransactionId = String(originalId)
            record(.purchased(resubscribe: resubscribe), customer: customer, transaction: index, into: &result)
            reschedule(subscriptionIndex)
            for member in familyShared {
                shareSubscription(subscriptionIndex, with: member)
            }
            propagate(subscriptionIndex, newTransaction: true, event: .purchased(resubscribe: resubscribe), into: &result)
        } else {
            let transactionId = newTransactionId()
            let index = append(StoreTransaction(
                transactionId: transactionId, originalTransactionId: transactionId, webOrderLineItemId: 0, orderId: orderId,
                customer: customer, product: productIndex, purchaseDate: now, originalPurchaseDate: now, expiresDate: nil,
                quantity: Int32(quantity), ownership: .purchased, reason: .purchase, offer: transactionOffer, price: storefrontPrice,
                appAccountToken: token, revocationDate: nil, revocationReason: nil, isUpgraded: false, finished: false,
                sharedFrom: nil, refundRequest: nil, consumption: nil))
            result.transactionIds.append(String(transactionId))
            result.originalTransactionId = String(transactionId)
            record(.purchased(resubscribe: false), customer: customer, transaction: index, into: &result)
            for member in familyShared {
                let memberIndex = self.customer(creating: member)
                let copyId = newTransactionId()
                var copy = transactions[Int(index)]
                copy.transactionId = copyId
                copy.originalTransactionId = copyId
                copy.orderId = 0
                copy.customer = memberIndex
                copy.ownership = .familyShared
                copy.price = 0
                copy.appAccountToken = nil
                copy.sharedFrom = transactionId
                let copyIndex = append(copy)
                result.transactionIds.append(String(copyId))
                record(.purchased(resubscribe: false), customer: memberIndex, transaction: copyIndex, into: &result)
            }
        }
        return result
    }

    /// The offer as a transaction records it, refused when the product has no such offer
    /// or the customer already had an introductory offer in the group.
    func validatedOffer(_ offer: StoreOffer?, product: StoreProduct, customer: Int32?) throws(StoreError) -> TransactionOffer? {
        guard let offer else { return nil }
        guard product.kind == .autoRenewableSubscription, let group = product.group else {
            throw StoreError(.invalidValue, field: "offer", "only auto-renewable subscriptions have offers; \(product.id) is \(product.kind.rawValue)")
        }
        switch offer {
        case .introductory:
            guard let intro = product.product.introductoryOffer else {
                throw StoreError(.invalidValue, field: "offer", "\(product.id) has no introductory offer")
            }
            if let customer, subscriptionByOwner[Self.ownerKey(customer: customer, group: group, ownership: .purchased)] != nil {
                throw StoreError(.invalidState, field: "offer",
                                 "\(customerId(customer)) already subscribed in group \(groups[Int(group)]): introductory offers are for new subscribers")
            }
            return TransactionOffer(type: .introductoryOffer, discountType: OfferDiscountType(intro.paymentMode))
        case .promotional(let id, let discount), .offerCode(let id, let discount), .winBack(let id, let discount):
            guard (1...64).contains(id.utf8.count) else {
                throw StoreError(.invalidValue, field: "offer", "an offer id has 1 to 64 characters")
            }
            let type: OfferType
            switch offer {
            case .promotional: type = .promotionalOffer
            case .offerCode: type = .offerCode
            default: type = .winBackOffer
            }
            return TransactionOffer(type: type, identifier: id, discountType: discount)
        }
    }

    /// A free trial costs nothing; every other discount is half the price here.
    func offerPrice(_ price: Int64, _ offer: TransactionOffer) -> Int64 {
        offer.discountType == .freeTrial ? 0 : price / 20 * 10
    }

    /// The first period: the introductory offer's own length, or one regular period.
    func firstPeriodLength(_ product: StoreProduct, offer: TransactionOffer?) -> Int64 {
        guard let offer, offer.type == .introductoryOffer, let intro = product.product.introductoryOffer else {
            return product.periodLength
        }
        switch intro.paymentMode {
        case .free, .payUpFront: return intro.period.seconds * 1_000 * Int64(max(1, intro.periodCount))
        case .payAsYouGo: return intro.period.seconds * 1_000
        }
    }

    /// Gives `member` a family-shared copy of the subscription (once per purchaser and group).
    mutating func shareSubscription(_ owner: Int32, with memberId: String) {
        let memberIndex = customer(creating: memberId)
        let ownerSubscription = subscriptions[Int(owner)]
        let key = Self.ownerKey(customer: memberIndex, group: ownerSubscription.group, ownership: .familyShared)
        if let existing = subscriptionByOwner[key] {
            if subscriptions[Int(existing)].sharedFrom == owner { return }
        }
        let copyId = newTransactionId()
        var copy = subscriptions[Int(owner)]
        copy.originalTransactionId = copyId
        copy.customer = memberIndex
        copy.ownership = .familyShared
        copy.sharedFrom = owner
        copy.familyCopies = []
        copy.extensionDates = []
        copy.latestTransaction = -1
        let index: Int32
        if let existing = subscriptionByOwner[key] {
            index = existing
            subscriptions[Int(existing)] = copy
        } else {
            index = Int32(subscriptions.count)
            subscriptions.append(copy)
            subscriptionByOwner[key] = index
        }
        subscriptionIndex[copyId] = index
        subscriptions[Int(owner)].familyCopies.append(index)
    }

    /// Brings the family members' copies of a subscription in line with it: the same
    /// state and dates; with `newTransaction`, each gets a copy of the purchaser's
    /// latest transaction and its own `event`.
    mutating func propagate(_ owner: Int32, newTransaction: Bool, event: StoreEvent.Kind?, into result: inout StoreActionResult) {
        let source = subscriptions[Int(owner)]
        for copyIndex in source.familyCopies {
            var copy = subscriptions[Int(copyIndex)]
            copy.product = source.product
            copy.autoRenewProduct = source.autoRenewProduct
            copy.autoRenewStatus = source.autoRenewStatus
            copy.status = source.status
            copy.expiresDate = source.expiresDate
            copy.recentSubscriptionStartDate = source.recentSubscriptionStartDate
            copy.gracePeriodExpiresDate = source.gracePeriodExpiresDate
            copy.billingRetryEndDate = source.billingRetryEndDate
            copy.expirationIntent = source.expirationIntent
            copy.priceIncreaseStatus = source.priceIncreaseStatus
            copy.renewalPrice = source.renewalPrice
            subscriptions[Int(copyIndex)] = copy
            var eventTransaction: Int32? = copy.latestTransaction >= 0 ? copy.latestTransaction : nil
            if newTransaction {
                let original = transactions[Int(source.latestTransaction)]
                let copyId = copy.latestTransaction < 0 ? copy.originalTransactionId : newTransactionId()
                var transaction = original
                transaction.transactionId = copyId
                transaction.originalTransactionId = copy.originalTransactionId
                transaction.originalPurchaseDate = copy.latestTransaction < 0 ? original.purchaseDate
                    : transactions[Int(copy.latestTransaction)].originalPurchaseDate
                transaction.orderId = 0
                transaction.customer = copy.customer
                transaction.ownership = .familyShared
                transaction.price = 0
                transaction.appAccountToken = nil
                transaction.sharedFrom = original.transactionId
                let index = append(transaction)
                subscriptions[Int(copyIndex)].latestTransaction = index
                result.transactionIds.append(String(copyId))
                eventTransaction = index
            } else if copy.latestTransaction >= 0 {
                transactions[Int(copy.latestTransaction)].expiresDate = transactions[Int(source.latestTransaction)].expiresDate
            }
            if let event {
                record(event, customer: copy.customer, transaction: eventTransaction, into: &result)
            }
        }
    }
}
