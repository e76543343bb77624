extension StoreState {
    /// SKTestSession's `clearTransactions`, for one customer: their transactions and
    /// subscriptions are gone (the customer and app transaction stay). Family members
    /// keep the copies they already had; a shared subscription lapses for them.
    @discardableResult
    public mutating func clearTransactions(customer customerId: String) throws(StoreError) -> StoreActionResult {
        let customer = try customerIndex(customerId)
        var removedTransactions = [Bool](repeating: false, count: transactions.count)
        for index in customers[Int(customer)].transactions { removedTransactions[Int(index)] = true }
        var removedSubscriptions = [Bool](repeating: false, count: subscriptions.count)
        for (index, subscription) in subscriptions.enumerated() where subscription.customer == customer {
            removedSubscriptions[index] = true
        }
        // New positions of what stays.
        var transactionMap = [Int32](repeating: -1, count: transactions.count)
        var kept: [StoreTransaction] = []
        kept.reserveCapacity(transactions.count)
        for (index, transaction) in transactions.enumerated() where !removedTransactions[index] {
            transactionMap[index] = Int32(kept.count)
            kept.append(transaction)
        }
        var subscriptionMap = [Int32](repeating: -1, count: subscriptions.count)
        var keptSubscriptions: [StoreSubscription] = []
        for (index, subscription) in subscriptions.enumerated() where !removedSubscriptions[index] {
            subscriptionMap[index] = Int32(keptSubscriptions.count)
            keptSubscriptions.append(subscription)
        }
        for index in keptSubscriptions.indices {
            var subscription = keptSubscriptions[index]
            subscription.latestTransaction = subscription.latestTransaction >= 0 ? transactionMap[Int(subscription.latestTransaction)] : -1
            if let owner = subscription.sharedFrom {
                if subscriptionMap[Int(owner)] >= 0 {
                    subscription.sharedFrom = subscriptionMap[Int(owner)]
                } else {
                    subscription.sharedFrom = nil
                }
                if subscription.sharedFrom == nil, subscription.status != .revoked {
                    // The purchaser's subscription is gone: the copy lapses rather than renew on its own.
                    subscription.status = .expired
                    subscription.expirationIntent = .other
                    subscription.autoRenewStatus = false
                }
            }
            subscription.familyCopies = subscription.familyCopies.compactMap { subscriptionMap[Int($0)] >= 0 ? subscriptionMap[Int($0)] : nil }
            keptSubscriptions[index] = subscription
        }
        transactions = kept
        subscriptions = keptSubscriptions
        for index in customers.indices {
            customers[index].transactions = customers[index].transactions.compactMap {
                transactionMap[Int($0)] >= 0 ? transactionMap[Int($0)] : nil
            }
        }
        rebuildIndexes()
        return StoreActionResult()
    }

    /// The id → index tables and the due queue, from the arrays.
    mutating func rebuildIndexes() {
        transactionIndex = [:]
        orderIndex = [:]
        familyCopies = [:]
        transactionIndex.reserveCapacity(transactions.count)
        for (index, transaction) in transactions.enumerated() {
            transactionIndex[transaction.transactionId] = Int32(index)
            if transaction.orderId != 0 { orderIndex[transaction.orderId] = Int32(index) }
            if let purchaser = transaction.sharedFrom { familyCopies[purchaser, default: []].append(Int32(index)) }
        }
        subscriptionIndex = [:]
        subscriptionByOwner = [:]
        dueQueue.removeAll()
        for (index, subscription) in subscriptions.enumerated() {
            subscriptionIndex[subscription.originalTransactionId] = Int32(index)
            subscriptionByOwner[Self.ownerKey(customer: subscription.customer, group: subscription.group,
                                              ownership: subscription.ownership)] = Int32(index)
            reschedule(Int32(index))
        }
    }
}
