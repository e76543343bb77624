import StoreKit2

/// What an event is about, as the Server API would have answered for it at the event's
/// instant: the transaction's payload and, for an auto-renewable subscription, its
/// renewal info and status; for a finished mass renewal-date extension, its record.
/// Taken when the event is recorded, inside the same write, because later events change
/// the store: a notification made from it later says what was true when it happened.
public struct StoreEventSubject: Sendable, Hashable {
    /// Get Transaction Info's payload for the event's transaction.
    public let transaction: JWSTransactionDecodedPayload?
    /// The renewal info of the subscription the transaction belongs to, as Get All
    /// Subscription Statuses lists it; nil for other products.
    public let renewalInfo: JWSRenewalInfoDecodedPayload?
    /// The subscription's status; nil for other products.
    public let status: SubscriptionStatus?
    /// The mass extension a `renewalExtensionSummary` event reports.
    public let massExtension: MassExtension?
}

extension StoreState {
    /// The subject of an event about `transaction` now.
    func eventSubject(transaction index: Int32) -> StoreEventSubject {
        let transaction = transactions[Int(index)]
        let subscription = subscriptionIndex[transaction.originalTransactionId].map { subscriptions[Int($0)] }
        return StoreEventSubject(transaction: transactionPayload(transaction), renewalInfo: subscription.map { renewalInfoPayload($0) },
                                 status: subscription?.status, massExtension: nil)
    }
}
