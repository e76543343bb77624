extension StoreState {
    /// A transaction the purchaser bought (not a family member's copy), by id.
    func purchasedTransaction(_ transactionId: String) throws(StoreError) -> Int32 {
        let index = try transactionIndex(transactionId)
        guard transactions[Int(index)].ownership == .purchased else {
            throw StoreError(.familyTransactionNotSupported, field: "transactionId",
                             "\(transactionId) is a family member's copy; refunds and requests concern the purchaser's transaction")
        }
        return index
    }

    /// The subscription whose latest transaction this is, if any.
    func subscription(latest transaction: Int32) -> Int32? {
        let record = transactions[Int(transaction)]
        guard record.expiresDate != nil, let index = subscriptionIndex[record.originalTransactionId],
              subscriptions[Int(index)].latestTransaction == transaction else { return nil }
        return index
    }

    /// SKTestSession's `refundTransaction`: Apple refunds the transaction now (`REFUND`),
    /// in full (`REFUND_FULL`) or, with `percentage` (milli-percent, 1 to 99999), prorated
    /// (`REFUND_PRORATED`, its `revocationPercentage`). Family members' copies are revoked
    /// with it; a refunded current subscription period revokes the subscription.
    @discardableResult
    public mutating func refundTransaction(transactionId: String, reason: RevocationReason,
                                           percentage: Int? = nil) throws(StoreError) -> StoreActionResult {
        let index = try purchasedTransaction(transactionId)
        guard !transactions[Int(index)].isRevoked else {
            throw StoreError(.invalidState, field: "transactionId", "\(transactionId) is already refunded or revoked")
        }
        if let percentage, !(1..<100_000).contains(percentage) {
            throw StoreError(.invalidValue, field: "percentage",
                             "\(percentage) is not a prorated share: 1 to 99999 milli-percent (leave it out for a full refund)")
        }
        var result = StoreActionResult()
        transactions[Int(index)].proratedShare = percentage.map(Int32.init)
        revoke(index, reason: reason, event: .refunded(reason), into: &result)
        return result
    }

    /// Apple declines the customer's refund request (`REFUND_DECLINED`).
    @discardableResult
    public mutating func declineRefund(transactionId: String) throws(StoreError) -> StoreActionResult {
        let index = try purchasedTransaction(transactionId)
        guard !transactions[Int(index)].isRevoked else {
            throw StoreError(.invalidState, field: "transactionId", "\(transactionId) is already refunded or revoked")
        }
        var result = StoreActionResult()
        transactions[Int(index)].refundRequest = nil
        record(.refundDeclined, customer: transactions[Int(index)].customer, transaction: index, into: &result)
        return result
    }

    /// Apple reverses a refund it granted (`REFUND_REVERSED`): the transaction, its
    /// family copies and a revoked subscription come back.
    @discardableResult
    public mutating func reverseRefund(transactionId: String) throws(StoreError) -> StoreActionResult {
        let index = try purchasedTransaction(transactionId)
        guard transactions[Int(index)].isRevoked else {
            throw StoreError(.invalidState, field: "transactionId", "\(transactionId) is not refunded")
        }
        var result = StoreActionResult()
        transactions[Int(index)].revocationDate = nil
        transactions[Int(index)].revocationReason = nil
        transactions[Int(index)].proratedShare = nil
        let id = transactions[Int(index)].transactionId
        for copy in familyCopies[id] ?? [] where transactions[Int(copy)].isRevoked {
            transactions[Int(copy)].revocationDate = nil
            transactions[Int(copy)].revocationReason = nil
        }
        let subscription = subscription(latest: index)
        if let subscription {
            let active = subscriptions[Int(subscription)].expiresDate > now
            subscriptions[Int(subscription)].status = active ? .active : .expired
            subscriptions[Int(subscription)].autoRenewStatus = active
            subscriptions[Int(subscription)].expirationIntent = active ? nil : .other
        }
        // Recorded once the subscription is back, so the event's subject shows it so.
        record(.refundReversed, customer: transactions[Int(index)].customer, transaction: index, into: &result)
        if let subscription {
            propagate(subscription, newTransaction: false, event: .refundReversed, into: &result)
            reschedule(subscription)
        }
        return result
    }

    /// Apple takes a purchase away. A family member's copy: the purchaser stopped sharing
    /// it, only that member loses it (`REVOKE`, revocationType `FAMILY_REVOKE`). The
    /// purchaser's own purchase: REVOKE is Family Sharing's alone (Apple's notificationType
    /// page lists it for one event: "A family member loses access to the subscription
    /// through Family Sharing"), and the one event by which Apple takes a purchaser's
    /// purchase back is "Apple refunds the transaction" (`REFUND`); so it is refunded, for
    /// another reason (revocationReason 0), with its family copies revoked as in any refund.
    /// https://developer.apple.com/documentation/appstoreservernotifications/notificationtype
    @discardableResult
    public mutating func revokeTransaction(transactionId: String) throws(StoreError) -> StoreActionResult {
        let index = try transactionIndex(transactionId)
        guard !transactions[Int(index)].isRevoked else {
            throw StoreError(.invalidState, field: "transactionId", "\(transactionId) is already refunded or revoked")
        }
        var result = StoreActionResult()
        if transactions[Int(index)].ownership == .familyShared {
            transactions[Int(index)].revocationDate = now
            transactions[Int(index)].revocationReason = .refundedForOtherReason
            record(.revoked, customer: transactions[Int(index)].customer, transaction: index, into: &result)
            if let copy = subscriptionIndex[transactions[Int(index)].originalTransactionId],
               let owner = subscriptions[Int(copy)].sharedFrom {
                subscriptions[Int(copy)].status = .revoked
                subscriptions[Int(copy)].autoRenewStatus = false
                subscriptions[Int(owner)].familyCopies.removeAll { $0 == copy }
            }
        } else {
            revoke(index, reason: .refundedForOtherReason, event: .refunded(.refundedForOtherReason), into: &result)
        }
        return result
    }

    /// The customer asked for a refund and Apple asks the developer for consumption
    /// information (`CONSUMPTION_REQUEST`); the request stays open until Apple refunds or declines.
    @discardableResult
    public mutating func requestConsumptionInformation(transactionId: String,
                                                       reason: ConsumptionRequestReason) throws(StoreError) -> StoreActionResult {
        let index = try purchasedTransaction(transactionId)
        guard !transactions[Int(index)].isRevoked else {
            throw StoreError(.invalidState, field: "transactionId", "\(transactionId) is already refunded or revoked")
        }
        guard transactions[Int(index)].refundRequest == nil else {
            throw StoreError(.invalidState, field: "transactionId", "a refund request for \(transactionId) is already open")
        }
        var result = StoreActionResult()
        transactions[Int(index)].refundRequest = RefundRequest(reason: reason, requestDate: now)
        record(.consumptionRequested(reason), customer: transactions[Int(index)].customer, transaction: index, into: &result)
        return result
    }

    /// Refunds or revokes a purchased transaction and what hangs on it.
    mutating func revoke(_ index: Int32, reason: RevocationReason, event: StoreEvent.Kind, into result: inout StoreActionResult) {
        transactions[Int(index)].revocationDate = now
        transactions[Int(index)].revocationReason = reason
        transactions[Int(index)].refundRequest = nil
        let id = transactions[Int(index)].transactionId
        let subscription = subscription(latest: index)
        if let subscription {
            subscriptions[Int(subscription)].status = .revoked
            subscriptions[Int(subscription)].autoRenewStatus = false
            subscriptions[Int(subscription)].gracePeriodExpiresDate = nil
            subscriptions[Int(subscription)].billingRetryEndDate = nil
            subscriptions[Int(subscription)].pendingBillingFailure = nil
        }
        // Recorded once the subscription is revoked, so the event's subject shows it so.
        record(event, customer: transactions[Int(index)].customer, transaction: index, into: &result)
        if let subscription {
            propagate(subscription, newTransaction: false, event: nil, into: &result)
            reschedule(subscription)
        }
        for copy in familyCopies[id] ?? [] where !transactions[Int(copy)].isRevoked {
            transactions[Int(copy)].revocationDate = now
            transactions[Int(copy)].revocationReason = reason
            record(.revoked, customer: transactions[Int(copy)].customer, transaction: copy, into: &result)
        }
    }
}
