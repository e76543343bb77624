extension StoreState {
    /// The longest single extension (`extendByDays`: 1 to 90).
    public static let maximumExtensionDays = 90
    /// Extensions a subscription may receive within 365 days.
    public static let extensionsPerYear = 2
    /// The longest renewal-extension request identifier, in UTF-8 bytes.
    public static let maximumRequestIdentifierLength = 128

    /// Set App Account Token: every transaction of the purchase `originalTransactionId`
    /// carries `token` from now on. Family members' copies are refused (4000185), as is
    /// a transaction id that is not an original one (4000187). Apple's page lists a
    /// malformed id as InvalidTransactionIdError (4000006), an unknown one as
    /// OriginalTransactionIdNotFoundError (4040005) and an app transaction id as
    /// AppTransactionIdNotSupportedError (4000048)
    /// (https://developer.apple.com/documentation/appstoreserverapi/set-app-account-token).
    public mutating func setAppAccountToken(originalTransactionId: String, token: String) throws(StoreError) {
        let id = try Self.parseId(originalTransactionId, field: "originalTransactionId", code: .invalidTransactionId)
        guard let parsed = AppAccountToken(token) else {
            throw StoreError(.invalidAppAccountToken, field: "appAccountToken", "'\(token)' is not a UUID")
        }
        guard let index = transactionIndex[id] else {
            throw notATransaction(id, originalTransactionId, field: "originalTransactionId", notFound: .originalTransactionNotFound)
        }
        let transaction = transactions[Int(index)]
        guard transaction.originalTransactionId == id else {
            throw StoreError(.transactionIdIsNotOriginalTransactionId, field: "originalTransactionId",
                             "\(originalTransactionId) is not an original transaction id (its original is \(transaction.originalTransactionId))")
        }
        guard transaction.ownership == .purchased else {
            throw StoreError(.familyTransactionNotSupported, field: "originalTransactionId",
                             "\(originalTransactionId) is a family member's copy")
        }
        for position in customers[Int(transaction.customer)].transactions
        where transactions[Int(position)].originalTransactionId == id {
            transactions[Int(position)].appAccountToken = parsed
        }
    }

    /// Finish Transaction: the app delivered the purchase. A finished consumable leaves
    /// the receipt and history v1 (unless refunded); it stays in history v2.
    public mutating func finishTransaction(transactionId: String) throws(StoreError) {
        let index = try transactionIndex(transactionId)
        transactions[Int(index)].finished = true
    }

    /// Send Consumption Information: kept with the transaction for the refund decision a
    /// test makes next (`refundTransaction` or `declineRefund`). Version 2 takes any
    /// product type; version 1 only consumables and auto-renewable subscriptions (Apple's
    /// `ConsumptionRequestV1` and `InvalidTransactionTypeNotSupportedError`). Version 2's
    /// `consumptionPercentage`, as Apple's consumptionPercentage page has it
    /// (https://developer.apple.com/documentation/appstoreserverapi/consumptionpercentage):
    /// "If the deliveryStatus value isn't DELIVERED, set the consumptionPercentage to 0;
    /// otherwise, the request fails with an HTTP 400 error
    /// UndeliveredConsumptionPercentageNonZeroError", and "Don't provide a consumption
    /// percentage for auto-renewable subscriptions, otherwise the request fails with an
    /// HTTP 400 error ConsumptionPercentageAutoRenewableSubscriptionError". Version 1's
    /// percentage is the one the store derives from its `consumptionStatus`, so neither applies.
    /// And, same page: "If you select GRANT_PRORATED for the refundPreference field, you need
    /// to provide a consumptionPercentage greater than 0 and less than 100000" (not for an
    /// auto-renewable subscription, whose percentage Apple calculates).
    public mutating func sendConsumptionInformation(transactionId: String, _ information: ConsumptionInformation,
                                                    request: ConsumptionInformation.Request = .v2) throws(StoreError) {
        let index = try transactionIndex(transactionId)
        let kind = product(transactions[Int(index)].product).kind
        if request == .v1, kind != .consumable, kind != .autoRenewableSubscription {
            throw StoreError(.transactionTypeNotSupported, field: "transactionId",
                             "\(transactionId) is a \(kind) purchase: version 1 takes consumables and auto-renewable subscriptions")
        }
        if let percentage = information.consumptionPercentage {
            guard (0...100_000).contains(percentage) else {
                throw StoreError(.invalidValue, field: "consumptionPercentage", "\(percentage) is not between 0 and 100000 (milli-percent)")
            }
            if request == .v2, kind == .autoRenewableSubscription {
                throw StoreError(.consumptionPercentageAutoRenewableSubscription, field: "consumptionPercentage",
                                 "\(transactionId) is an auto-renewable subscription, whose percentage Apple calculates from the time elapsed: leave it out")
            }
            if request == .v2, percentage != 0, information.deliveryStatus != .delivered {
                throw StoreError(.undeliveredConsumptionPercentageNonZero, field: "consumptionPercentage",
                                 "\(percentage) with deliveryStatus \(information.deliveryStatus.rawValue): must be 0 unless DELIVERED")
            }
        }
        if request == .v2, kind != .autoRenewableSubscription, information.refundPreference == .grantProrated,
           !(1..<100_000).contains(information.consumptionPercentage ?? 0) {
            throw StoreError(.invalidValue, field: "consumptionPercentage",
                             "GRANT_PRORATED needs a consumptionPercentage greater than 0 and less than 100000, not "
                                 + (information.consumptionPercentage.map(String.init) ?? "none"))
        }
        guard transactions[Int(index)].ownership == .purchased else {
            throw StoreError(.familyTransactionNotSupported, field: "transactionId", "\(transactionId) is a family member's copy")
        }
        var received = information
        received.receivedDate = now
        transactions[Int(index)].consumption = received
    }

    /// Extend a Subscription Renewal Date: moves the renewal (and the current period's
    /// expiry) `days` later, for the purchaser and the family members sharing it. A request
    /// identifier this subscription was extended with before is that request sent again, as
    /// Apple's requestIdentifier page has it: "To resend the same request due to a timeout
    /// or other error, use the same request identifier"
    /// (https://developer.apple.com/documentation/appstoreserverapi/requestidentifier): it
    /// is answered as the first time (same effective date), and extends nothing.
    @discardableResult
    public mutating func extendRenewalDate(originalTransactionId: String, days: Int, reason: ExtendReasonCode,
                                           requestIdentifier: String) throws(StoreError) -> StoreActionResult {
        try Self.validateExtension(days: days, requestIdentifier: requestIdentifier)
        let index = try subscriptionIndex(originalTransactionId)
        let key = SingleExtensionKey(originalTransactionId: subscriptions[Int(index)].originalTransactionId, requestIdentifier: requestIdentifier)
        if let first = singleExtensions[key] { return first }
        guard subscriptions[Int(index)].ownership == .purchased else {
            throw StoreError(.familySharedSubscriptionExtensionIneligible, field: "originalTransactionId",
                             "\(originalTransactionId) is shared through Family Sharing; extend the purchaser's subscription")
        }
        if let problem = extensionProblem(index) { throw problem }
        var result = StoreActionResult()
        extend(index, days: days, requestIdentifier: requestIdentifier, into: &result)
        var answer = result
        answer.events = []
        singleExtensions[key] = answer
        return result
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers of `productId` (in
    /// `storefrontCountryCodes`, when given): every eligible purchased subscription is
    /// extended, the others are counted as failed; the request completes at once. A
    /// request identifier used for the product before is that request sent again (Apple's
    /// requestIdentifier page: "To resend the same request due to a timeout or other error,
    /// use the same request identifier"): answered as the first time, nothing extended again.
    @discardableResult
    public mutating func extendRenewalDatesForAllActiveSubscribers(productId: String, days: Int, reason: ExtendReasonCode,
                                                                   requestIdentifier: String,
                                                                   storefrontCountryCodes: [String]? = nil) throws(StoreError) -> StoreActionResult {
        try Self.validateExtension(days: days, requestIdentifier: requestIdentifier)
        guard let product = productIndex[productId], products[Int(product)].kind == .autoRenewableSubscription else {
            throw StoreError(.invalidProductId, field: "productId", "'\(productId)' is not an auto-renewable subscription of the app")
        }
        if massExtensions.contains(where: { $0.requestIdentifier == requestIdentifier && $0.productId == productId }) {
            var first = StoreActionResult()
            first.requestIdentifier = requestIdentifier
            return first
        }
        var storefronts: Set<Storefront>?
        if let storefrontCountryCodes {
            guard !storefrontCountryCodes.isEmpty else {
                throw StoreError(.emptyStorefrontCountryCodes, field: "storefrontCountryCodes", "is empty (leave it out for every storefront)")
            }
            var chosen = Set<Storefront>()
            for code in storefrontCountryCodes {
                guard let storefront = Storefront(rawValue: code) else {
                    throw StoreError(.invalidStorefrontCountryCode, field: "storefrontCountryCodes",
                                     "'\(code)' is not one of the store's storefronts (\(Storefront.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                chosen.insert(storefront)
            }
            storefronts = chosen
        }
        var result = StoreActionResult()
        var succeeded = 0
        var failed = 0
        for index in subscriptions.indices {
            let subscription = subscriptions[index]
            guard subscription.ownership == .purchased, subscription.product == product,
                  storefronts.map({ $0.contains(customers[Int(subscription.customer)].storefront) }) ?? true,
                  subscription.status != .expired, subscription.status != .revoked else { continue }
            if extensionProblem(Int32(index)) == nil {
                extend(Int32(index), days: days, requestIdentifier: requestIdentifier, into: &result)
                succeeded += 1
            } else {
                record(.renewalExtensionFailed(requestIdentifier: requestIdentifier), customer: subscription.customer,
                       transaction: subscription.latestTransaction, into: &result)
                failed += 1
            }
        }
        let massExtension = MassExtension(requestIdentifier: requestIdentifier, productId: productId, extendByDays: days,
                                          extendReasonCode: reason, storefrontCountryCodes: storefrontCountryCodes,
                                          complete: true, completeDate: now, succeededCount: succeeded, failedCount: failed)
        massExtensions.append(massExtension)
        let event = StoreEvent(sequence: eventCount + 1, date: now,
                               kind: .renewalExtensionSummary(requestIdentifier: requestIdentifier, succeeded: succeeded, failed: failed),
                               customerId: "", productId: productId, transactionNumber: nil, originalTransactionNumber: nil,
                               subject: StoreEventSubject(massExtension: massExtension))
        events.append(event)
        result.events.append(event)
        // The per-subscription fields `extend` filled belong to single extensions.
        result.effectiveDate = nil
        result.webOrderLineItemId = nil
        result.originalTransactionId = nil
        result.requestIdentifier = requestIdentifier
        return result
    }

    /// Get Status of Subscription Renewal Date Extensions.
    public func massExtensionStatus(productId: String, requestIdentifier: String) throws(StoreError) -> MassExtension {
        guard let found = massExtensions.first(where: { $0.productId == productId && $0.requestIdentifier == requestIdentifier }) else {
            throw StoreError(.statusRequestNotFound, field: "requestIdentifier",
                             "no renewal-date extension '\(requestIdentifier)' for \(productId)")
        }
        return found
    }

    static func validateExtension(days: Int, requestIdentifier: String) throws(StoreError) {
        guard (1...maximumExtensionDays).contains(days) else {
            throw StoreError(.invalidExtendByDays, field: "extendByDays", "\(days) is not between 1 and \(maximumExtensionDays)")
        }
        guard (1...maximumRequestIdentifierLength).contains(requestIdentifier.utf8.count) else {
            throw StoreError(.invalidRequestIdentifier, field: "requestIdentifier",
                             "has \(requestIdentifier.utf8.count) bytes; 1 to \(maximumRequestIdentifierLength) are allowed")
        }
    }

    /// Why the subscription cannot be extended now, as Apple lists it: expired,
    /// inactive billing retry, grace period past its expiry, a free offer period, or
    /// two extensions within the last 365 days.
    func extensionProblem(_ index: Int32) -> StoreError? {
        let subscription = subscriptions[Int(index)]
        let id = subscription.originalTransactionId
        guard subscription.status == .active, subscription.expiresDate > now else {
            return StoreError(.subscriptionExtensionIneligible, field: "originalTransactionId",
                              "subscription \(id) is \(subscription.status), not active")
        }
        if transactions[Int(subscription.latestTransaction)].offer?.discountType == .freeTrial {
            return StoreError(.subscriptionExtensionIneligible, field: "originalTransactionId", "subscription \(id) is in a free offer period")
        }
        let recent = subscription.extensionDates.filter { $0 > now - StoreDuration.days(365) }
        if recent.count >= Self.extensionsPerYear {
            return StoreError(.subscriptionMaxExtension, field: "originalTransactionId",
                              "subscription \(id) was extended \(recent.count) times within the last 365 days")
        }
        return nil
    }

    mutating func extend(_ index: Int32, days: Int, requestIdentifier: String, into result: inout StoreActionResult) {
        let extra = StoreDuration.days(days)
        var subscription = subscriptions[Int(index)]
        subscription.expiresDate += extra
        subscription.extensionDates = subscription.extensionDates.filter { $0 > now - StoreDuration.days(365) } + [now]
        subscriptions[Int(index)] = subscription
        let latest = subscription.latestTransaction
        transactions[Int(latest)].expiresDate = subscription.expiresDate
        result.effectiveDate = subscription.expiresDate
        result.webOrderLineItemId = String(transactions[Int(latest)].webOrderLineItemId)
        result.originalTransactionId = String(subscription.originalTransactionId)
        let kind = StoreEvent.Kind.renewalExtended(days: days, requestIdentifier: requestIdentifier)
        record(kind, customer: subscription.customer, transaction: latest, into: &result)
        propagate(index, newTransaction: false, event: kind, into: &result)
        reschedule(index)
    }
}
