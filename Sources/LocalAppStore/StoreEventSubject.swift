import StoreKit2

/// What an event is about, as the Server API would have answered for it at the event's
/// instant: the transaction's payload and, for an auto-renewable subscription, its
/// renewal info and status; for a finished mass renewal-date extension, its record.
/// Taken when the event is recorded, inside the same write, because later events change
/// the store: a notification made from it later says what was true when it happened.
///
/// What is kept is the records at that instant (the transaction, the subscription), not
/// the payloads: they are made from the records when read, by the code the store makes
/// its own payloads with, so they are the same bytes. A server with 100,000 events in
/// its notification history keeps a few hundred bytes each instead of two decoded
/// payloads and their strings. Copies of the event share one snapshot.
public struct StoreEventSubject: Sendable, Hashable {
    /// Get Transaction Info's payload for the event's transaction.
    public var transaction: JWSTransactionDecodedPayload? {
        switch snapshot {
        case .purchase(let purchase), .subscription(let purchase, _, _):
            return purchase.payloads.transaction(purchase.transaction, of: purchase.buyer, signedDate: purchase.date)
        case .massExtension:
            return nil
        }
    }

    /// The renewal info of the subscription the transaction belongs to, as Get All
    /// Subscription Statuses lists it; nil for other products.
    public var renewalInfo: JWSRenewalInfoDecodedPayload? {
        guard case .subscription(let purchase, let subscription, let appAccountToken) = snapshot else { return nil }
        return purchase.payloads.renewalInfo(subscription, of: purchase.buyer, appAccountToken: appAccountToken, signedDate: purchase.date)
    }

    /// The subscription's status; nil for other products.
    public var status: SubscriptionStatus? {
        guard case .subscription(_, let subscription, _) = snapshot else { return nil }
        return subscription.status
    }

    /// The mass extension a `renewalExtensionSummary` event reports.
    public var massExtension: MassExtension? {
        guard case .massExtension(let massExtension) = snapshot else { return nil }
        return massExtension
    }

    /// Boxed (`indirect`): one pointer in the event, the records on the heap once.
    private let snapshot: Snapshot

    private indirect enum Snapshot: Sendable, Hashable {
        /// A transaction of a product that is not an auto-renewable subscription.
        case purchase(Purchase)
        /// A subscription's transaction, the subscription, and its latest transaction's
        /// app account token (the renewal info carries it).
        case subscription(Purchase, StoreSubscription, appAccountToken: AppAccountToken?)
        case massExtension(MassExtension)
    }

    private struct Purchase: Sendable, Hashable {
        let transaction: StoreTransaction
        let buyer: StorePayloads.Buyer
        let date: StoreInstant
        let payloads: StorePayloads

        static func == (lhs: Purchase, rhs: Purchase) -> Bool {
            lhs.transaction == rhs.transaction && lhs.buyer == rhs.buyer && lhs.date == rhs.date && lhs.payloads == rhs.payloads
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(transaction)
            hasher.combine(date)
        }
    }

    init(massExtension: MassExtension) {
        snapshot = .massExtension(massExtension)
    }

    fileprivate init(transaction: StoreTransaction, buyer: StorePayloads.Buyer, date: StoreInstant, payloads: StorePayloads,
                     subscription: (StoreSubscription, appAccountToken: AppAccountToken?)?) {
        let purchase = Purchase(transaction: transaction, buyer: buyer, date: date, payloads: payloads)
        snapshot = subscription.map { .subscription(purchase, $0.0, appAccountToken: $0.appAccountToken) } ?? .purchase(purchase)
    }
}

extension StoreState {
    /// The subject of an event about `transaction` now.
    func eventSubject(transaction index: Int32) -> StoreEventSubject {
        let transaction = transactions[Int(index)]
        let subscription = subscriptionIndex[transaction.originalTransactionId].map { subscriptions[Int($0)] }
        return StoreEventSubject(transaction: transaction, buyer: .init(customers[Int(transaction.customer)]), date: now, payloads: payloads,
                                 subscription: subscription.map { ($0, transactions[Int($0.latestTransaction)].appAccountToken) })
    }
}
