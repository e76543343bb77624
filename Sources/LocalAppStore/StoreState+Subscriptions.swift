import BER
import ForgeCA

/// When a failed renewal takes effect.
/// Why `expireSubscription` ends a subscription: the reasons a test can choose (billing
/// and price-increase expiries come from their own actions).
public enum ExpirationReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The customer cancelled: expiration intent 1, EXPIRED / VOLUNTARY.
    case voluntary
    /// The product was no longer for sale at renewal: intent 4, EXPIRED / PRODUCT_NOT_FOR_SALE.
    case productNotForSale
    /// Any other reason: intent 5, EXPIRED with no subtype.
    case other

    /// The renewal info's `expirationIntent` for this reason.
    public var intent: ExpirationIntent {
        switch self {
        case .voluntary: return .customerCancelled
        case .productNotForSale: return .productNotAvailable
        case .other: return .other
        }
    }
}

public enum BillingFailureTiming: String, Sendable, Hashable, Codable, CaseIterable {
    /// The renewal is attempted now and fails: the period ends now.
    case now
    /// The next renewal, when the clock reaches the expiry date, fails.
    case atNextRenewal
}

extension StoreState {
    /// How long a billing grace period lasts: 6 days for weekly subscriptions, 16 for
    /// the others (App Store Connect's defaults).
    public static func gracePeriodLength(_ product: StoreProduct) -> Int64 {
        product.periodLength <= StoreDuration.days(7) ? StoreDuration.days(6) : StoreDuration.days(16)
    }

    /// The App Store retries billing for up to 60 days.
    public static let billingRetryLength = StoreDuration.days(60)

    /// The subscription named by `originalTransactionId`, which must be the purchaser's
    /// (a family member's copy follows the purchaser's and is changed through it).
    func ownedSubscription(_ originalTransactionId: String, field: String = "originalTransactionId") throws(StoreError) -> Int32 {
        let index = try subscriptionIndex(originalTransactionId, field: field)
        guard subscriptions[Int(index)].ownership == .purchased else {
            throw StoreError(.familyTransactionNotSupported, field: field,
                             "\(originalTransactionId) is a family member's copy; act on the purchaser's subscription")
        }
        return index
    }

    func requireStatus(_ index: Int32, in allowed: Set<SubscriptionStatus>, field: String = "originalTransactionId",
                       _ action: String) throws(StoreError) {
        let status = subscriptions[Int(index)].status
        guard allowed.contains(status) else {
            throw StoreError(.invalidState, field: field,
                             "cannot \(action): subscription \(subscriptions[Int(index)].originalTransactionId) is \(status)")
        }
    }

    // MARK: Actions

    /// SKTestSession's `forceRenewalOfSubscription`: renews now (a new transaction and
    /// web order line item id; the new period starts now).
    @discardableResult
    public mutating func forceRenewalOfSubscription(originalTransactionId: String) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        try requireStatus(index, in: [.active], "renew")
        var result = StoreActionResult()
        renew(index, at: now, billingRecovery: false, into: &result)
        return result
    }

    /// SKTestSession's `expireSubscription`: the subscription ends now, as if the
    /// customer had cancelled (expiration intent 1), or for `reason`: the product was
    /// taken off sale (intent 4, EXPIRED / PRODUCT_NOT_FOR_SALE) or another reason
    /// (intent 5, EXPIRED with no subtype).
    @discardableResult
    public mutating func expireSubscription(originalTransactionId: String,
                                            reason: ExpirationReason = .voluntary) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        try requireStatus(index, in: [.active, .billingGracePeriod, .billingRetry], "expire")
        var result = StoreActionResult()
        subscriptions[Int(index)].autoRenewStatus = false
        cutPeriod(index, at: now)
        expire(index, intent: reason.intent, into: &result)
        return result
    }

    /// A renewal fails for billing: the subscription enters a billing grace period
    /// (still active, status 4) or billing retry (status 3), now or at its next renewal.
    @discardableResult
    public mutating func failRenewal(originalTransactionId: String, gracePeriod: Bool,
                                     when timing: BillingFailureTiming = .now) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        try requireStatus(index, in: [.active], "fail a renewal")
        guard subscriptions[Int(index)].autoRenewStatus else {
            throw StoreError(.invalidState, field: "originalTransactionId",
                             "subscription \(originalTransactionId) does not renew (auto-renew is off)")
        }
        var result = StoreActionResult()
        switch timing {
        case .now:
            cutPeriod(index, at: now)
            failToRenew(index, gracePeriod: gracePeriod, into: &result)
        case .atNextRenewal:
            subscriptions[Int(index)].pendingBillingFailure = gracePeriod ? .gracePeriod : .billingRetry
        }
        return result
    }

    /// The customer's billing works again: a subscription in grace period or billing
    /// retry renews now (`DID_RENEW`, `BILLING_RECOVERY`); a failure set for the next
    /// renewal is withdrawn.
    @discardableResult
    public mutating func recoverBilling(originalTransactionId: String) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        let subscription = subscriptions[Int(index)]
        var result = StoreActionResult()
        if subscription.status == .active, subscription.pendingBillingFailure != nil {
            subscriptions[Int(index)].pendingBillingFailure = nil
            return result
        }
        try requireStatus(index, in: [.billingGracePeriod, .billingRetry], "recover billing")
        renew(index, at: now, billingRecovery: true, into: &result)
        return result
    }

    /// SKTestSession's `disableAutoRenewForTransaction`: the subscription runs to the end
    /// of its period and then expires voluntarily.
    @discardableResult
    public mutating func disableAutoRenew(originalTransactionId: String) throws(StoreError) -> StoreActionResult {
        try setAutoRenew(originalTransactionId, false)
    }

    /// Turns auto-renew on: the subscription renews at the end of its period again.
    @discardableResult
    public mutating func enableAutoRenew(originalTransactionId: String) throws(StoreError) -> StoreActionResult {
        try setAutoRenew(originalTransactionId, true)
    }

    private mutating func setAutoRenew(_ originalTransactionId: String, _ enabled: Bool) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        try requireStatus(index, in: [.active, .billingGracePeriod, .billingRetry], enabled ? "enable auto-renew" : "disable auto-renew")
        guard subscriptions[Int(index)].autoRenewStatus != enabled else {
            throw StoreError(.invalidState, field: "originalTransactionId",
                             "auto-renew of \(originalTransactionId) is already \(enabled ? "on" : "off")")
        }
        var result = StoreActionResult()
        subscriptions[Int(index)].autoRenewStatus = enabled
        record(.autoRenewChanged(enabled: enabled), customer: subscriptions[Int(index)].customer,
               transaction: subscriptions[Int(index)].latestTransaction, into: &result)
        propagate(index, newTransaction: false, event: .autoRenewChanged(enabled: enabled), into: &result)
        return result
    }

    /// Changes the product the subscription renews to, within its group, as the App
    /// Store does: an upgrade (a higher level) or a crossgrade of the same period takes
    /// effect now (the old transaction `isUpgraded`, a new one starts); a downgrade or a
    /// crossgrade of another period waits for the next renewal; the current product
    /// withdraws a pending change.
    @discardableResult
    public mutating func changeRenewalProduct(originalTransactionId: String, productId: String) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        let target = try productIndex(productId, field: "productId")
        let subscription = subscriptions[Int(index)]
        let targetProduct = product(target)
        guard targetProduct.group == subscription.group else {
            throw StoreError(.invalidValue, field: "productId",
                             "\(productId) is not in subscription group \(groups[Int(subscription.group)])")
        }
        try requireStatus(index, in: [.active, .billingGracePeriod, .billingRetry], "change the renewal product")
        let current = product(subscription.product)
        let change: StoreEvent.RenewalChange
        if target == subscription.product {
            guard subscription.autoRenewProduct != target else {
                throw StoreError(.invalidState, field: "productId", "\(originalTransactionId) already renews to \(productId)")
            }
            change = .cancelled
        } else if targetProduct.level < current.level {
            change = .upgrade
        } else if targetProduct.level > current.level {
            change = .downgrade
        } else {
            change = targetProduct.periodLength == current.periodLength ? .crossgradeImmediate : .crossgradeAtRenewal
        }
        if change == .upgrade || change == .crossgradeImmediate {
            try requireStatus(index, in: [.active], field: "productId", "upgrade or crossgrade at once")
        }
        var result = StoreActionResult()
        switch change {
        case .upgrade, .crossgradeImmediate:
            let old = subscription.latestTransaction
            transactions[Int(old)].isUpgraded = true
            for copy in subscription.familyCopies where subscriptions[Int(copy)].latestTransaction >= 0 {
                transactions[Int(subscriptions[Int(copy)].latestTransaction)].isUpgraded = true
            }
            subscriptions[Int(index)].autoRenewProduct = target
            subscriptions[Int(index)].renewalPrice = targetProduct.price
            subscriptions[Int(index)].priceIncreaseStatus = nil
            subscriptions[Int(index)].renewalOffer = nil
            subscriptions[Int(index)].offerPeriodsLeft = 0
            let transaction = startPeriod(index, at: now, reason: .purchase, offer: nil)
            result.transactionIds.append(String(transactions[Int(transaction)].transactionId))
            result.orderId = orderIdText(transactions[Int(transaction)].orderId)
            record(.renewalPreferenceChanged(change), customer: subscription.customer, transaction: transaction, into: &result)
            propagate(index, newTransaction: true, event: .renewalPreferenceChanged(change), into: &result)
            reschedule(index)
        case .downgrade, .crossgradeAtRenewal, .cancelled:
            subscriptions[Int(index)].autoRenewProduct = target
            subscriptions[Int(index)].renewalPrice = targetProduct.price
            record(.renewalPreferenceChanged(change), customer: subscription.customer, transaction: subscription.latestTransaction,
                   into: &result)
            propagate(index, newTransaction: false, event: .renewalPreferenceChanged(change), into: &result)
        }
        return result
    }

    /// A price increase for the subscription's next renewals: one that needs the
    /// customer's consent is pending (`PRICE_INCREASE`, `PENDING`) until accepted, and
    /// the subscription expires at renewal if it still is; one that does not is accepted
    /// at once.
    @discardableResult
    public mutating func priceIncrease(originalTransactionId: String, renewalPrice: Int64,
                                       requiresConsent: Bool) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        try requireStatus(index, in: [.active, .billingGracePeriod, .billingRetry], "raise the price")
        guard renewalPrice > subscriptions[Int(index)].renewalPrice else {
            throw StoreError(.invalidValue, field: "renewalPrice",
                             "\(renewalPrice) is not above the current renewal price \(subscriptions[Int(index)].renewalPrice)")
        }
        var result = StoreActionResult()
        let status: PriceIncreaseStatus = requiresConsent ? .customerHasNotResponded : .customerConsentedOrWasNotifiedWithoutNeedingConsent
        subscriptions[Int(index)].renewalPrice = renewalPrice
        subscriptions[Int(index)].priceIncreaseStatus = status
        record(.priceIncrease(status), customer: subscriptions[Int(index)].customer,
               transaction: subscriptions[Int(index)].latestTransaction, into: &result)
        propagate(index, newTransaction: false, event: .priceIncrease(status), into: &result)
        return result
    }

    /// The customer consents to a pending price increase (`PRICE_INCREASE`, `ACCEPTED`).
    @discardableResult
    public mutating func acceptPriceIncrease(originalTransactionId: String) throws(StoreError) -> StoreActionResult {
        let index = try ownedSubscription(originalTransactionId)
        guard subscriptions[Int(index)].priceIncreaseStatus == .customerHasNotResponded else {
            throw StoreError(.invalidState, field: "originalTransactionId", "no price increase of \(originalTransactionId) awaits consent")
        }
        var result = StoreActionResult()
        let status = PriceIncreaseStatus.customerConsentedOrWasNotifiedWithoutNeedingConsent
        subscriptions[Int(index)].priceIncreaseStatus = status
        record(.priceIncrease(status), customer: subscriptions[Int(index)].customer,
               transaction: subscriptions[Int(index)].latestTransaction, into: &result)
        propagate(index, newTransaction: false, event: .priceIncrease(status), into: &result)
        return result
    }

    // MARK: The clock

    /// Moves the clock forward by `milliseconds`, processing what falls due on the way.
    @discardableResult
    public mutating func advance(by milliseconds: Int64) throws(StoreError) -> StoreActionResult {
        try advance(to: clockTarget(by: milliseconds))
    }

    /// The instant a move of the clock by `milliseconds` goes to, or why it cannot move so.
    public func clockTarget(by milliseconds: Int64) throws(StoreError) -> StoreInstant {
        guard milliseconds >= 0 else {
            throw StoreError(.clockMovesForward, field: "milliseconds", "\(milliseconds) is negative: the clock only moves forward")
        }
        let (target, overflow) = now.addingReportingOverflow(milliseconds)
        guard !overflow else { throw StoreError(.invalidValue, field: "milliseconds", "\(milliseconds) moves the clock past the end of time") }
        return try clockTarget(to: target)
    }

    /// The longest move of the clock one action may ask for: ten years of 366 days. A move
    /// renews every subscription once per period on the way, so a move to the end of time
    /// (`{"to": 9223372036854775807}`) would renew weekly subscriptions for ages and grow
    /// without bound; a longer move is asked for in steps. (The clock catching up with a
    /// time rate is not limited: it moves as far as the source did, in bounded parts,
    /// `LocalAppStore`.)
    public static let maximumClockMove: Int64 = StoreDuration.days(10 * 366)

    /// Moves the clock to `instant`: every renewal, failed renewal, grace period end and
    /// expiry due by then happens at its own date, earliest first (ties by subscription
    /// order), and the clock stops at `instant`. At most `maximumClockMove` ahead, and not
    /// past `signingCertificateNotAfter` (`clockTarget(to:)`).
    @discardableResult
    public mutating func advance(to instant: StoreInstant) throws(StoreError) -> StoreActionResult {
        _ = try clockTarget(to: instant)
        var result = StoreActionResult()
        _ = advance(toward: instant, processingAtMost: .max, into: &result)
        return result
    }

    /// `instant` when the clock may move there (not back, at most `maximumClockMove`
    /// ahead), or why it may not.
    public func clockTarget(to instant: StoreInstant) throws(StoreError) -> StoreInstant {
        guard instant >= now else {
            throw StoreError(.clockMovesForward, field: "instant", "\(instant) is before the store's now \(now): the clock only moves forward")
        }
        let (distance, overflow) = instant.subtractingReportingOverflow(now)
        guard !overflow, distance <= Self.maximumClockMove else {
            throw StoreError(.invalidValue, field: "instant", "\(instant) is more than \(Self.maximumClockMove) ms (ten years) after the store's now \(now): move the clock in steps")
        }
        guard instant <= Self.signingCertificateNotAfter else {
            throw StoreError(.pastSigningCertificate, field: "instant",
                             "\(instant) (\(ASN1Time(secondsSince1970: instant / 1_000))) is after \(Self.signingCertificateNotAfter) "
                             + "(\(AuthorityProfile.caNotAfter)), the notAfter of the certificates the store signs with: "
                             + "Apple's verifier would refuse every JWS and receipt signed then")
        }
        return instant
    }

    /// The last instant the store's signatures verify at: the `notAfter` of the forge's
    /// CA and of the leaf certificates it issues for the store's JWS and receipts
    /// (`AuthorityProfile.caNotAfter`), in milliseconds. A move of the clock past it is
    /// refused (`pastSigningCertificate`), and the clock at a time rate stops there
    /// (`LocalAppStore`), so that no answer is signed by an expired certificate.
    public static let signingCertificateNotAfter: StoreInstant = AuthorityProfile.caNotAfter.secondsSince1970 * 1_000

    /// One bounded part of a move of the clock to `instant` (not before `now`): processes
    /// at most `limit` due entries (renewals, failed renewals, grace period ends,
    /// expiries), earliest first, and answers true once the clock stands at `instant`.
    /// It answers false after the `limit`th, with the clock at that entry's date: what is
    /// due later, or at the same date but later in the queue, waits for the next call,
    /// which goes on exactly where this one stopped. A move made in any number of parts
    /// makes the same renewals, in the same order, with the same ids, as one `advance(to:)`
    /// (`LocalAppStore` moves in parts so that other requests get the lock in between).
    mutating func advance(toward instant: StoreInstant, processingAtMost limit: Int, into result: inout StoreActionResult) -> Bool {
        var processed = 0
        while let first = dueQueue.first, first.date <= instant {
            if processed == limit { return false }
            let entry = dueQueue.removeFirst()
            guard subscriptions.indices.contains(Int(entry.subscription)),
                  subscriptions[Int(entry.subscription)].dueGeneration == entry.generation else { continue }
            now = max(now, entry.date)
            processDue(entry.subscription, into: &result)
            processed += 1
        }
        now = max(now, instant)
        return true
    }

    /// What happens when the clock reaches a subscription's due date.
    mutating func processDue(_ index: Int32, into result: inout StoreActionResult) {
        let subscription = subscriptions[Int(index)]
        switch subscription.status {
        case .active:
            if !subscription.autoRenewStatus {
                expire(index, intent: .customerCancelled, into: &result)
            } else if subscription.priceIncreaseStatus == .customerHasNotResponded {
                expire(index, intent: .customerDidNotConsentToPriceIncrease, into: &result)
            } else if let failure = subscription.pendingBillingFailure {
                failToRenew(index, gracePeriod: failure == .gracePeriod, into: &result)
            } else {
                renew(index, at: subscription.expiresDate, billingRecovery: false, into: &result)
            }
        case .billingGracePeriod:
            subscriptions[Int(index)].status = .billingRetry
            subscriptions[Int(index)].gracePeriodExpiresDate = nil
            record(.gracePeriodExpired, customer: subscription.customer, transaction: subscription.latestTransaction, into: &result)
            propagate(index, newTransaction: false, event: .gracePeriodExpired, into: &result)
            reschedule(index)
        case .billingRetry:
            expire(index, intent: .billingError, into: &result)
        case .expired, .revoked:
            break
        }
    }

    // MARK: Steps the actions and the clock share

    /// A renewal at `date`: the pending product, the remaining offer periods, a new
    /// transaction and web order line item id.
    mutating func renew(_ index: Int32, at date: StoreInstant, billingRecovery: Bool, into result: inout StoreActionResult) {
        var subscription = subscriptions[Int(index)]
        var offer: TransactionOffer?
        if subscription.offerPeriodsLeft > 0, let renewalOffer = subscription.renewalOffer {
            offer = renewalOffer
            subscription.offerPeriodsLeft -= 1
        } else {
            subscription.renewalOffer = nil
        }
        if subscription.priceIncreaseStatus == .customerConsentedOrWasNotifiedWithoutNeedingConsent {
            subscription.priceIncreaseStatus = nil
        }
        subscription.pendingBillingFailure = nil
        subscriptions[Int(index)] = subscription
        let transaction = startPeriod(index, at: date, reason: .renewal, offer: offer)
        result.transactionIds.append(String(transactions[Int(transaction)].transactionId))
        record(.renewed(billingRecovery: billingRecovery), customer: subscription.customer, transaction: transaction, into: &result)
        propagate(index, newTransaction: true, event: .renewed(billingRecovery: billingRecovery), into: &result)
        reschedule(index)
    }

    /// A new period of the renewal product from `date`: its transaction, the
    /// subscription active until the period's end.
    mutating func startPeriod(_ index: Int32, at date: StoreInstant, reason: TransactionReason, offer: TransactionOffer?) -> Int32 {
        let subscription = subscriptions[Int(index)]
        let productIndex = subscription.autoRenewProduct
        let renewalProduct = product(productIndex)
        let length: Int64
        if let offer, let intro = renewalProduct.product.introductoryOffer, offer.type == .introductoryOffer {
            length = intro.period.seconds * 1_000
        } else {
            length = renewalProduct.periodLength
        }
        let previous = transactions[Int(subscription.latestTransaction)]
        let transactionId = newTransactionId()
        let transaction = append(StoreTransaction(
            transactionId: transactionId, originalTransactionId: subscription.originalTransactionId,
            webOrderLineItemId: newWebOrderLineItemId(), orderId: newOrderId(), customer: subscription.customer,
            product: productIndex, purchaseDate: date, originalPurchaseDate: previous.originalPurchaseDate,
            expiresDate: date + length, quantity: 1, ownership: .purchased, reason: reason, offer: offer,
            price: offer.map { offerPrice(subscription.renewalPrice, $0) } ?? subscription.renewalPrice,
            appAccountToken: previous.appAccountToken, revocationDate: nil, revocationReason: nil, isUpgraded: false,
            finished: false, sharedFrom: nil, refundRequest: nil, consumption: nil))
        var updated = subscriptions[Int(index)]
        if updated.status != .active && updated.status != .billingGracePeriod && updated.status != .billingRetry {
            updated.recentSubscriptionStartDate = date
        }
        updated.product = productIndex
        updated.latestTransaction = transaction
        updated.expiresDate = date + length
        updated.status = .active
        updated.gracePeriodExpiresDate = nil
        updated.billingRetryEndDate = nil
        updated.expirationIntent = nil
        subscriptions[Int(index)] = updated
        return transaction
    }

    /// The renewal due at the end of the period fails for billing.
    mutating func failToRenew(_ index: Int32, gracePeriod: Bool, into result: inout StoreActionResult) {
        var subscription = subscriptions[Int(index)]
        let failedAt = subscription.expiresDate
        subscription.pendingBillingFailure = nil
        subscription.status = gracePeriod ? .billingGracePeriod : .billingRetry
        subscription.gracePeriodExpiresDate = gracePeriod ? failedAt + Self.gracePeriodLength(product(subscription.product)) : nil
        subscription.billingRetryEndDate = failedAt + Self.billingRetryLength
        subscriptions[Int(index)] = subscription
        record(.failedToRenew(gracePeriod: gracePeriod), customer: subscription.customer, transaction: subscription.latestTransaction,
               into: &result)
        propagate(index, newTransaction: false, event: .failedToRenew(gracePeriod: gracePeriod), into: &result)
        reschedule(index)
    }

    mutating func expire(_ index: Int32, intent: ExpirationIntent, into result: inout StoreActionResult) {
        var subscription = subscriptions[Int(index)]
        subscription.status = .expired
        subscription.expirationIntent = intent
        subscription.gracePeriodExpiresDate = nil
        subscription.billingRetryEndDate = nil
        subscription.pendingBillingFailure = nil
        if intent != .billingError { subscription.autoRenewStatus = false }
        subscriptions[Int(index)] = subscription
        record(.expired(intent), customer: subscription.customer, transaction: subscription.latestTransaction, into: &result)
        propagate(index, newTransaction: false, event: .expired(intent), into: &result)
        reschedule(index)
    }

    /// Ends the current period at `date` (expire now, fail now).
    mutating func cutPeriod(_ index: Int32, at date: StoreInstant) {
        let latest = subscriptions[Int(index)].latestTransaction
        if let expires = transactions[Int(latest)].expiresDate, expires > date {
            transactions[Int(latest)].expiresDate = max(date, transactions[Int(latest)].purchaseDate)
        }
        subscriptions[Int(index)].expiresDate = min(subscriptions[Int(index)].expiresDate, date)
    }
}
