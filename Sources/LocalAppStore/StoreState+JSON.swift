import StoreKit2

/// `GET /forge/v1/state`: the whole store as JSON (`Schemas/store-state.schema.json`),
/// ids as strings as Apple writes them, dates in milliseconds, keys sorted, written by
/// the project's one StoreKit 2 JSON writer, so the same state is the same bytes.
extension StoreState: Encodable {
    /// The `version` of the state document this store writes.
    public static let stateFormatVersion = 1

    /// The state document.
    public func stateJSON() -> [UInt8] { StoreKit2JSON.encode(self) }

    /// The state document narrowed by `query` (one customer, a page of events);
    /// `customerNotFound` for a customer the store does not have. Encode a `snapshot()`,
    /// not inside `LocalAppStore.read`: a large store takes long to encode.
    public func stateJSON(_ query: StateQuery) throws(StoreError) -> [UInt8] {
        StoreKit2JSON.encode(try StateDocument(self, query))
    }

    /// Encodes the state document (`Schemas/store-state.schema.json`).
    public func encode(to encoder: any Encoder) throws {
        let document: StateDocument
        do throws(StoreError) {
            document = try StateDocument(self, StateQuery())
        } catch {
            preconditionFailure("a query for no customer names none that can be missing: \(error)")
        }
        try document.encode(to: encoder)
    }
}

/// What a state document is asked to show (`GET /forge/v1/state?customer=…&eventsFrom=…&eventsLimit=…`):
/// by default everything.
public struct StateQuery: Sendable, Hashable {
    /// Only this customer: their customer record, transactions, subscriptions and events.
    public var customer: String?
    /// Events from this sequence number on (1: from the first).
    public var eventsFrom: Int
    /// At most this many events; nil: every one from `eventsFrom` on. When the page stops
    /// early the document's `nextEventsFrom` says where the next page starts.
    public var eventsLimit: Int?

    public init(customer: String? = nil, eventsFrom: Int = 1, eventsLimit: Int? = nil) {
        self.customer = customer
        self.eventsFrom = eventsFrom
        self.eventsLimit = eventsLimit
    }
}

/// The state document of a state and a query.
private struct StateDocument: Encodable {
    let state: StoreState
    /// The customer the document is narrowed to, by index.
    let customer: Int32?
    let events: [StoreEvent]
    let nextEventsFrom: Int?

    init(_ state: StoreState, _ query: StateQuery) throws(StoreError) {
        self.state = state
        customer = try query.customer.map { id throws(StoreError) in try state.customerIndex(id) }
        let first = min(state.events.count, max(0, query.eventsFrom - 1 - state.droppedEventCount))
        var page: [StoreEvent] = []
        var next: Int?
        for event in state.events[first...] where query.customer == nil || event.customerId == query.customer {
            if let limit = query.eventsLimit, page.count >= limit {
                next = event.sequence
                break
            }
            page.append(event)
        }
        events = page
        nextEventsFrom = next
    }

    private enum CodingKeys: String, CodingKey {
        case version, bundleId, appAppleId, environment, seed, start, now
        case products, customers, transactions, subscriptions, massExtensions, events
        case droppedEventCount, nextEventsFrom
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let configuration = state.configuration
        try container.encode(StoreState.stateFormatVersion, forKey: .version)
        try container.encode(configuration.app.bundleIdentifier, forKey: .bundleId)
        try container.encode(configuration.appAppleId, forKey: .appAppleId)
        try container.encode(configuration.environment.rawValue, forKey: .environment)
        try container.encode(configuration.seed, forKey: .seed)
        try container.encode(configuration.start, forKey: .start)
        try container.encode(state.now, forKey: .now)
        try container.encode(state.products.map { ProductJSON($0, groups: state.groups) }, forKey: .products)
        var customerList = container.nestedUnkeyedContainer(forKey: .customers)
        var transactionList = container.nestedUnkeyedContainer(forKey: .transactions)
        var subscriptionList = container.nestedUnkeyedContainer(forKey: .subscriptions)
        if let customer {
            try customerList.encode(CustomerJSON(state.customers[Int(customer)]))
            for index in state.customers[Int(customer)].transactions {
                try transactionList.encode(TransactionJSON(state.transactions[Int(index)], in: state))
            }
            for subscription in state.subscriptions where subscription.customer == customer {
                try subscriptionList.encode(SubscriptionJSON(subscription, in: state))
            }
        } else {
            for customer in state.customers { try customerList.encode(CustomerJSON(customer)) }
            for transaction in state.transactions { try transactionList.encode(TransactionJSON(transaction, in: state)) }
            for subscription in state.subscriptions { try subscriptionList.encode(SubscriptionJSON(subscription, in: state)) }
        }
        try container.encode(state.massExtensions, forKey: .massExtensions)
        try container.encode(events, forKey: .events)
        if state.droppedEventCount > 0 { try container.encode(state.droppedEventCount, forKey: .droppedEventCount) }
        try container.encodeIfPresent(nextEventsFrom, forKey: .nextEventsFrom)
    }
}

private struct ProductJSON: Encodable {
    var productId: String
    var type: String
    var subscriptionGroupIdentifier: String?
    var level: Int?
    var period: String?
    var introductoryOffer: String?
    var price: Int64

    init(_ product: StoreProduct, groups: [String]) {
        productId = product.id
        type = product.kind.appleType
        subscriptionGroupIdentifier = product.group.map { groups[Int($0)] }
        level = product.group == nil ? nil : product.level
        period = product.kind == .autoRenewableSubscription ? (product.product.period?.description ?? "P1M") : nil
        introductoryOffer = product.product.introductoryOffer.map { OfferDiscountType($0.paymentMode).rawValue }
        price = product.price
    }
}

private struct CustomerJSON: Encodable {
    var customerId: String
    var storefront: String
    var appTransactionId: String
    var firstDownloadDate: StoreInstant

    init(_ customer: StoreCustomer) {
        customerId = customer.id
        storefront = customer.storefront.rawValue
        appTransactionId = String(customer.appTransactionId)
        firstDownloadDate = customer.firstDownloadDate
    }
}

private struct TransactionJSON: Encodable {
    var transactionId: String
    var originalTransactionId: String
    var webOrderLineItemId: String?
    var orderId: String?
    var customerId: String
    var productId: String
    var purchaseDate: StoreInstant
    var originalPurchaseDate: StoreInstant
    var expiresDate: StoreInstant?
    var quantity: Int32
    var inAppOwnershipType: OwnershipType
    var transactionReason: TransactionReason
    var offer: TransactionOffer?
    var price: Int64
    var currency: String
    var appAccountToken: AppAccountToken?
    var revocationDate: StoreInstant?
    var revocationReason: RevocationReason?
    var isUpgraded: Bool
    var finished: Bool
    var sharedFromTransactionId: String?
    var refundRequest: RefundRequest?
    var consumption: ConsumptionInformation?

    init(_ transaction: StoreTransaction, in state: StoreState) {
        transactionId = String(transaction.transactionId)
        originalTransactionId = String(transaction.originalTransactionId)
        webOrderLineItemId = transaction.webOrderLineItemId == 0 ? nil : String(transaction.webOrderLineItemId)
        orderId = state.orderId(of: transaction)
        customerId = state.customers[Int(transaction.customer)].id
        productId = state.products[Int(transaction.product)].id
        purchaseDate = transaction.purchaseDate
        originalPurchaseDate = transaction.originalPurchaseDate
        expiresDate = transaction.expiresDate
        quantity = transaction.quantity
        inAppOwnershipType = transaction.ownership
        transactionReason = transaction.reason
        offer = transaction.offer
        price = transaction.price
        currency = state.customers[Int(transaction.customer)].storefront.currency
        appAccountToken = transaction.appAccountToken
        revocationDate = transaction.revocationDate
        revocationReason = transaction.revocationReason
        isUpgraded = transaction.isUpgraded
        finished = transaction.finished
        sharedFromTransactionId = transaction.sharedFrom.map { String($0) }
        refundRequest = transaction.refundRequest
        consumption = transaction.consumption
    }
}

private struct SubscriptionJSON: Encodable {
    var originalTransactionId: String
    var customerId: String
    var subscriptionGroupIdentifier: String
    var inAppOwnershipType: OwnershipType
    var sharedFromOriginalTransactionId: String?
    var familyMemberOriginalTransactionIds: [String]
    var productId: String
    var autoRenewProductId: String
    var autoRenewStatus: Int
    var status: SubscriptionStatus
    var latestTransactionId: String?
    var expiresDate: StoreInstant
    var recentSubscriptionStartDate: StoreInstant
    var gracePeriodExpiresDate: StoreInstant?
    var billingRetryEndDate: StoreInstant?
    var expirationIntent: ExpirationIntent?
    var priceIncreaseStatus: PriceIncreaseStatus?
    var renewalPrice: Int64
    var pendingBillingFailure: StoreSubscription.BillingFailure?
    var renewalOffer: TransactionOffer?
    var offerPeriodsLeft: Int32
    var extensionDates: [StoreInstant]

    init(_ subscription: StoreSubscription, in state: StoreState) {
        originalTransactionId = String(subscription.originalTransactionId)
        customerId = state.customers[Int(subscription.customer)].id
        subscriptionGroupIdentifier = state.groups[Int(subscription.group)]
        inAppOwnershipType = subscription.ownership
        sharedFromOriginalTransactionId = subscription.sharedFrom.map { String(state.subscriptions[Int($0)].originalTransactionId) }
        familyMemberOriginalTransactionIds = subscription.familyCopies.map { String(state.subscriptions[Int($0)].originalTransactionId) }
        productId = state.products[Int(subscription.product)].id
        autoRenewProductId = state.products[Int(subscription.autoRenewProduct)].id
        autoRenewStatus = subscription.autoRenewStatus ? 1 : 0
        status = subscription.status
        latestTransactionId = subscription.latestTransaction >= 0
            ? String(state.transactions[Int(subscription.latestTransaction)].transactionId) : nil
        expiresDate = subscription.expiresDate
        recentSubscriptionStartDate = subscription.recentSubscriptionStartDate
        gracePeriodExpiresDate = subscription.gracePeriodExpiresDate
        billingRetryEndDate = subscription.billingRetryEndDate
        expirationIntent = subscription.expirationIntent
        priceIncreaseStatus = subscription.priceIncreaseStatus
        renewalPrice = subscription.renewalPrice
        pendingBillingFailure = subscription.pendingBillingFailure
        renewalOffer = subscription.renewalOffer
        offerPeriodsLeft = subscription.offerPeriodsLeft
        extensionDates = subscription.extensionDates
    }
}
