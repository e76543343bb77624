import StoreKit2

/// What an event is about, as the Server API would have answered for it at the event's
/// instant: the transaction's payload and, for an auto-renewable subscription, its
/// renewal info and status; for a finished mass renewal-date extension, its record.
/// Taken when the event is recorded, inside the same write, because later events change
/// the store: a notification made from it later says what was true when it happened.
public struct StoreEventSubject: Sendable, Hashable {
    /// Get Transaction Info's payload for the event's transaction.
    public var transaction: JWSTransactionDecodedPayload? { storage.transaction }
    /// The renewal info of the subscription the transaction belongs to, as Get All
    /// Subscription Statuses lists it; nil for other products.
    public var renewalInfo: JWSRenewalInfoDecodedPayload? { storage.renewalInfo }
    /// The subscription's status; nil for other products.
    public var status: SubscriptionStatus? { storage.status }
    /// The mass extension a `renewalExtensionSummary` event reports.
    public var massExtension: MassExtension? { storage.massExtension }

    /// The payloads, about a kilobyte, shared by every copy of the event (the state's
    /// history, a server's notification record) instead of copied into each.
    private let storage: Storage

    private final class Storage: Sendable {
        let transaction: JWSTransactionDecodedPayload?
        let renewalInfo: JWSRenewalInfoDecodedPayload?
        let status: SubscriptionStatus?
        let massExtension: MassExtension?

        init(transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?, status: SubscriptionStatus?,
             massExtension: MassExtension?) {
            self.transaction = transaction
            self.renewalInfo = renewalInfo
            self.status = status
            self.massExtension = massExtension
        }
    }

    init(transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?, status: SubscriptionStatus?,
         massExtension: MassExtension?) {
        storage = Storage(transaction: transaction, renewalInfo: renewalInfo, status: status, massExtension: massExtension)
    }

    public static func == (lhs: StoreEventSubject, rhs: StoreEventSubject) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.transaction == rhs.transaction && lhs.renewalInfo == rhs.renewalInfo && lhs.status == rhs.status
                && lhs.massExtension == rhs.massExtension)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(transaction)
        hasher.combine(renewalInfo)
        hasher.combine(status)
        hasher.combine(massExtension)
    }
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
