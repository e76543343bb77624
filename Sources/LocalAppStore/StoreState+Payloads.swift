import AppInput
import ForgeSupport
import Foundation
import StoreKit2

/// The StoreKit 2 payloads of the store at its current instant: what Get Transaction
/// Info, the history, subscription statuses, notifications and `Transaction` hold.
/// `signedDate` is the store's now; `environment` the store's.
extension StoreState {
    var environmentName: String { configuration.environment.rawValue }

    /// The payload of one transaction.
    public func transactionPayload(_ transaction: StoreTransaction) -> JWSTransactionDecodedPayload {
        payloads.transaction(transaction, of: .init(customers[Int(transaction.customer)]), signedDate: now)
    }

    /// Get Transaction Info.
    public func transactionInfo(transactionId: String) throws(StoreError) -> JWSTransactionDecodedPayload {
        transactionPayload(transactions[Int(try transactionIndex(transactionId))])
    }

    /// The renewal info of one subscription.
    public func renewalInfoPayload(_ subscription: StoreSubscription) -> JWSRenewalInfoDecodedPayload {
        payloads.renewalInfo(subscription, of: .init(customers[Int(subscription.customer)]),
                             appAccountToken: transactions[Int(subscription.latestTransaction)].appAccountToken, signedDate: now)
    }

    /// The renewal info of the subscription `originalTransactionId` belongs to (any of its transaction ids works).
    public func renewalInfo(transactionId: String) throws(StoreError) -> JWSRenewalInfoDecodedPayload {
        let transaction = transactions[Int(try transactionIndex(transactionId))]
        guard let index = subscriptionIndex[transaction.originalTransactionId] else {
            throw StoreError(.invalidState, field: "transactionId", "\(transactionId) is not an auto-renewable subscription's transaction")
        }
        return renewalInfoPayload(subscriptions[Int(index)])
    }

    /// The app transaction of a customer.
    public func appTransactionPayload(_ customer: StoreCustomer) -> AppTransactionDecodedPayload {
        let app = configuration.app
        let production = configuration.environment == .production
        var random = DeterministicRandom(seed: configuration.seed, label: "device:\(customer.appTransactionId)")
        var payload = AppTransactionDecodedPayload()
        payload.receiptType = environmentName
        payload.appAppleId = production ? configuration.appAppleId : nil
        payload.bundleId = app.bundleIdentifier
        payload.applicationVersion = app.version
        payload.versionExternalIdentifier = production ? 834_289_833 : 0
        payload.receiptCreationDate = JWSDate(milliseconds: now)
        payload.originalPurchaseDate = JWSDate(milliseconds: customer.firstDownloadDate)
        payload.originalApplicationVersion = app.originalVersion ?? (production ? "1" : "1.0")
        payload.deviceVerification = Data(random.bytes(48)).base64EncodedString()
        payload.deviceVerificationNonce = DeterministicUUID(drawingFrom: &random).description
        payload.appTransactionId = String(customer.appTransactionId)
        payload.originalPlatform = app.platform == .macos ? "macOS" : "iOS"
        payload.signedDate = JWSDate(milliseconds: now)
        payload.environment = environmentName
        return payload
    }

    /// Get App Transaction Info: by any transaction id of the customer, or the app transaction id.
    public func appTransactionInfo(transactionId: String) throws(StoreError) -> AppTransactionDecodedPayload {
        do throws(StoreError) {
            return appTransactionPayload(customers[Int(try customerIndex(anyTransactionId: transactionId))])
        } catch let error where error.code == .transactionNotFound {
            throw StoreError(.appTransactionDoesNotExist, field: "transactionId", "no customer with a transaction or app transaction \(transactionId)")
        }
    }
}

/// One entry of `lastTransactions` in Get All Subscription Statuses.
public struct LastTransactionStatus: Sendable, Hashable {
    /// The subscription's status.
    public var status: SubscriptionStatus
    /// The subscription's original transaction id.
    public var originalTransactionId: String
    /// Its latest transaction, to be signed.
    public var transaction: JWSTransactionDecodedPayload
    /// Its renewal info, to be signed.
    public var renewalInfo: JWSRenewalInfoDecodedPayload
}

/// One subscription group of Get All Subscription Statuses.
public struct SubscriptionGroupStatus: Sendable, Hashable {
    /// The group's identifier.
    public var subscriptionGroupIdentifier: String
    /// One entry per subscription of the customer in the group.
    public var lastTransactions: [LastTransactionStatus]
}

extension StoreState {
    /// Get All Subscription Statuses for the customer of `transactionId` (any of their
    /// transaction ids or their app transaction id): per group, each
    /// subscription (purchased or family-shared) with its latest transaction and renewal
    /// info; `statuses` keeps only those in the given states.
    public func subscriptionStatuses(transactionId: String, statuses: Set<SubscriptionStatus>? = nil) throws(StoreError) -> [SubscriptionGroupStatus] {
        let customer = try customerIndex(anyTransactionId: transactionId)
        var byGroup: [Int32: [LastTransactionStatus]] = [:]
        for subscription in subscriptionsOf(customer) where statuses?.contains(subscription.status) ?? true {
            byGroup[subscription.group, default: []].append(LastTransactionStatus(
                status: subscription.status, originalTransactionId: String(subscription.originalTransactionId),
                transaction: transactionPayload(transactions[Int(subscription.latestTransaction)]),
                renewalInfo: renewalInfoPayload(subscription)))
        }
        return byGroup.keys.sorted().map { SubscriptionGroupStatus(subscriptionGroupIdentifier: groups[Int($0)], lastTransactions: byGroup[$0]!) }
    }

    /// The customer's subscriptions, in store order.
    package func subscriptionsOf(_ customer: Int32) -> [StoreSubscription] {
        var found: [StoreSubscription] = []
        for group in groups.indices {
            for ownership in OwnershipType.allCases {
                if let index = subscriptionByOwner[Self.ownerKey(customer: customer, group: Int32(group), ownership: ownership)],
                   subscriptions[Int(index)].latestTransaction >= 0 {
                    found.append(subscriptions[Int(index)])
                }
            }
        }
        return found.sorted { $0.originalTransactionId < $1.originalTransactionId }
    }
}
