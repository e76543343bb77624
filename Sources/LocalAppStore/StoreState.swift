import AppInput
import ForgeSupport

/// One environment of one app's App Store, as plain values: products, customers,
/// transactions, subscriptions, the clock and the events so far. Everything the Server
/// API, notifications and receipts say is derived from it (`StoreState+Payloads`,
/// `+History`, `+Receipt`), and it changes only through its actions, each of which
/// validates everything first and then applies, so a refused action changes nothing.
///
/// Storage is flat arrays of values with dictionaries from ids to indices, so 100 000
/// customers are a few arrays, not a graph of objects, and a copy is copy-on-write.
/// The same configuration and the same actions give the same state, byte for byte
/// (`stateJSON()`).
public struct StoreState: Sendable {
    /// What the store was created with: the app, environment, start time, seed.
    public let configuration: StoreConfiguration
    /// The store clock (milliseconds since 1970).
    public internal(set) var now: StoreInstant
    /// The app's products, in the order of its catalogue.
    public let products: [StoreProduct]
    /// Subscription group identifiers; `StoreProduct.group` indexes this.
    public let groups: [String]
    /// What every payload shares (the catalogue, bundle id, environment).
    let payloads: StorePayloads
    /// Every customer, in the order they were added.
    public internal(set) var customers: [StoreCustomer] = []
    /// Every transaction, in the order it was made.
    public internal(set) var transactions: [StoreTransaction] = []
    /// Every subscription (one per original transaction id).
    public internal(set) var subscriptions: [StoreSubscription] = []
    /// Every mass renewal-date extension, in the order requested.
    public internal(set) var massExtensions: [MassExtension] = []
    /// The answers of the single renewal-date extensions done, by subscription and request
    /// identifier: the same request sent again is answered as the first time, not done twice.
    var singleExtensions: [SingleExtensionKey: StoreActionResult] = [:]
    /// What happened since the store was created or reset (the default population's
    /// history is state, not events), oldest first; those older than the history window
    /// may have been dropped (`droppedEventCount`, `StoreState+Retention`).
    public internal(set) var events: [StoreEvent] = []
    /// How many of the oldest events were dropped from `events` (`dropHistory(before:)`):
    /// `events[0]` has the sequence number `droppedEventCount + 1`.
    public internal(set) var droppedEventCount = 0

    var random: DeterministicRandom
    var transactionCounter: UInt64 = 0
    var webOrderCounter: UInt64 = 0
    var orderCounter: UInt64 = 0
    var dueQueue = DueQueue()

    let productIndex: [String: Int32]
    var customerIndex: [String: Int32] = [:]
    /// A customer's app transaction id → the customer.
    var appTransactionIndex: [UInt64: Int32] = [:]
    var transactionIndex: [UInt64: Int32] = [:]
    var orderIndex: [UInt64: Int32] = [:]
    var subscriptionIndex: [UInt64: Int32] = [:]
    /// (customer, group, ownership) → subscription.
    var subscriptionByOwner: [UInt64: Int32] = [:]
    /// A purchaser's transaction id → the family members' copies of it.
    var familyCopies: [UInt64: [Int32]] = [:]

    /// A store with the configuration's products and no customers, its clock at `configuration.start`.
    public init(empty configuration: StoreConfiguration) {
        self.configuration = configuration
        now = configuration.start
        (products, groups) = StoreProduct.catalogue(of: configuration.app)
        var index: [String: Int32] = [:]
        for (position, product) in products.enumerated() where index[product.id] == nil {
            index[product.id] = Int32(position)
        }
        productIndex = index
        payloads = StorePayloads(configuration: configuration, products: products, groups: groups)
        random = DeterministicRandom(seed: configuration.seed, label: "store:\(configuration.environment.rawValue)")
    }

    /// The default store: `configuration.customers` customers with a history up to the
    /// start instant (see `StoreState+Population`).
    public init(_ configuration: StoreConfiguration = StoreConfiguration()) {
        self.init(empty: configuration)
        populate()
    }

    /// The state the store started in (SKTestSession's `resetToDefaultState`).
    public mutating func resetToDefaultState() {
        self = StoreState(configuration)
    }

    // MARK: Ids

    /// Transaction ids: 16 digits, production from 1000000…, sandbox from 2000000….
    var idBase: UInt64 { configuration.environment == .production ? 1_000_000_000_000_000 : 2_000_000_000_000_000 }

    mutating func newTransactionId() -> UInt64 {
        transactionCounter += 1 + random.next() % 64
        return idBase + transactionCounter
    }

    mutating func newWebOrderLineItemId() -> UInt64 {
        webOrderCounter += 1 + random.next() % 16
        return idBase + 500_000_000_000_000 + webOrderCounter
    }

    mutating func newOrderId() -> UInt64 {
        orderCounter += 1
        return orderCounter
    }

    /// Order ids look like Apple's (`MK5TTVWJHT`): ten base-36 characters, an
    /// invertible mix of the order number, so two orders never share one and an id
    /// leads back to its number without a table.
    static let orderModulus: UInt64 = 3_656_158_440_062_976  // 36^10
    /// Coprime with 36, so multiplying by it is a bijection modulo 36^10.
    static let orderMultiplier: UInt64 = 2_305_843_009_213_693
    static let orderAlphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    /// The 10-character order id (Look Up Order ID) of order `number`: scrambled with the seed, so ids look random but map back to their number.
    public func orderIdText(_ number: UInt64) -> String {
        let modulus = Self.orderModulus
        var value = (Self.multiply(Self.orderMultiplier, number % modulus) + configuration.seed % modulus) % modulus
        var characters = [UInt8](repeating: 0, count: 10)
        for position in (0..<10).reversed() {
            characters[position] = Self.orderAlphabet[Int(value % 36)]
            value /= 36
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The order number an order id stands for (whether such an order exists is the caller's question).
    func orderNumber(_ text: String) -> UInt64? {
        let modulus = Self.orderModulus
        guard text.utf8.count == 10 else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard let digit = Self.orderAlphabet.firstIndex(of: byte) else { return nil }
            value = value * 36 + UInt64(digit)
        }
        let unmixed = (value + modulus - configuration.seed % modulus) % modulus
        return Self.multiply(unmixed, Self.inverse(Self.orderMultiplier, modulo: modulus))
    }

    /// `a * b mod 36^10` without overflow.
    static func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return orderModulus.dividingFullWidth((product.high, product.low)).remainder
    }

    /// The inverse of `value` modulo `modulus` (extended Euclid; both below 2^62).
    static func inverse(_ value: UInt64, modulo modulus: UInt64) -> UInt64 {
        var (oldR, r) = (Int64(value), Int64(modulus))
        var (oldS, s) = (Int64(1), Int64(0))
        while r != 0 {
            let quotient = oldR / r
            (oldR, r) = (r, oldR - quotient * r)
            (oldS, s) = (s, oldS - quotient * s)
        }
        precondition(oldR == 1, "the order multiplier must be coprime with 36")
        return UInt64((oldS % Int64(modulus) + Int64(modulus)) % Int64(modulus))
    }

    // MARK: Lookups

    /// The customer `transaction` belongs to.
    public func customer(of transaction: StoreTransaction) -> StoreCustomer { customers[Int(transaction.customer)] }

    /// The product `transaction` is of.
    public func product(of transaction: StoreTransaction) -> StoreProduct { products[Int(transaction.product)] }

    /// The customer whose subscription `subscription` is (the family member's, for a family copy).
    public func customer(of subscription: StoreSubscription) -> StoreCustomer { customers[Int(subscription.customer)] }

    /// The product of `subscription`'s current period.
    public func product(of subscription: StoreSubscription) -> StoreProduct { products[Int(subscription.product)] }

    /// `customer`'s transactions, in the order they were made.
    public func transactions(of customer: StoreCustomer) -> [StoreTransaction] { customer.transactions.map { transactions[Int($0)] } }

    func product(_ index: Int32) -> StoreProduct { products[Int(index)] }

    func productIndex(_ id: String, field: String) throws(StoreError) -> Int32 {
        guard !id.isEmpty else { throw StoreError(.invalidValue, field: field, "is empty") }
        guard let index = productIndex[id] else {
            throw StoreError(.productNotFound, field: field, "no product '\(id)' in the app's catalogue")
        }
        return index
    }

    /// A transaction id as the API receives it: digits only, at most 2^64 − 1 (twenty digits
    /// can be more: such an id is refused saying so).
    static func parseId(_ text: String, field: String, code: StoreError.Code = .invalidTransactionId) throws(StoreError) -> UInt64 {
        guard !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw StoreError(code, field: field, "'\(text)' is not a transaction id (1 to 20 digits)")
        }
        guard let value = UInt64(text) else {
            throw StoreError(code, field: field, "\(text) is above \(UInt64.max) (2^64 − 1), the largest transaction id")
        }
        return value
    }

    /// The transaction `text` names. An app transaction id is refused with its own code:
    /// actions and endpoints that take a transaction id take no app transaction id
    /// (Apple's `AppTransactionIdNotSupportedError`; those that do use `customerIndex(anyTransactionId:)`).
    func transactionIndex(_ text: String, field: String = "transactionId") throws(StoreError) -> Int32 {
        let id = try Self.parseId(text, field: field)
        guard let index = transactionIndex[id] else { throw notATransaction(id, text, field: field) }
        return index
    }

    /// Why no transaction has the id `id` (`text` as given): it is an app transaction id, or unknown.
    func notATransaction(_ id: UInt64, _ text: String, field: String, notFound: StoreError.Code = .transactionNotFound) -> StoreError {
        if appTransactionIndex[id] != nil {
            return StoreError(.appTransactionIdNotSupported, field: field,
                              "\(text) is an app transaction id; this takes the id of an in-app purchase transaction")
        }
        return StoreError(notFound, field: field, "no transaction \(text) in this store")
    }

    /// The customer of `text`: any of their transaction ids, original or not, or their
    /// app transaction id (Apple's `anyTransactionId`: "any originalTransactionId,
    /// transactionId or appTransactionId that belongs to the customer").
    func customerIndex(anyTransactionId text: String, field: String = "transactionId") throws(StoreError) -> Int32 {
        let id = try Self.parseId(text, field: field)
        if let index = transactionIndex[id] { return transactions[Int(index)].customer }
        if let customer = appTransactionIndex[id] { return customer }
        throw StoreError(.transactionNotFound, field: field, "no transaction or app transaction \(text) in this store")
    }

    func subscriptionIndex(_ text: String, field: String = "originalTransactionId") throws(StoreError) -> Int32 {
        let id = try Self.parseId(text, field: field, code: .invalidOriginalTransactionId)
        guard let index = subscriptionIndex[id] else {
            if let transaction = transactionIndex[id], subscriptionIndex[transactions[Int(transaction)].originalTransactionId] != nil {
                throw StoreError(.invalidOriginalTransactionId, field: field,
                                 "\(text) is a transaction of subscription \(transactions[Int(transaction)].originalTransactionId), not its original transaction id")
            }
            throw StoreError(.originalTransactionNotFound, field: field, "no subscription with original transaction id \(text)")
        }
        return index
    }

    func customerIndex(_ id: String, field: String = "customer") throws(StoreError) -> Int32 {
        guard let index = customerIndex[id] else {
            throw StoreError(.customerNotFound, field: field, "no customer '\(id)'")
        }
        return index
    }

    /// Customer ids: 1 to 64 ASCII letters, digits, '.', '_' or '-'.
    static func validateCustomerId(_ id: String, field: String) throws(StoreError) {
        let allowed: [ClosedRange<UInt8>] = [0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D...0x2E, 0x5F...0x5F]  // 0-9 A-Z a-z - . _
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy({ byte in allowed.contains { $0.contains(byte) } }) else {
            throw StoreError(.invalidValue, field: field, "'\(id)' is not a customer id (1 to 64 of A-Z a-z 0-9 . _ -)")
        }
    }

    static func ownerKey(customer: Int32, group: Int32, ownership: OwnershipType) -> UInt64 {
        UInt64(UInt32(bitPattern: customer)) << 32 | UInt64(UInt32(bitPattern: group)) << 1 | (ownership == .familyShared ? 1 : 0)
    }

    func customerId(_ index: Int32) -> String { customers[Int(index)].id }

    /// The customer a transaction (any of theirs, original or not) belongs to: how Get
    /// Notification History's `transactionId` names a customer.
    public func customerId(ofTransaction transactionId: String) throws(StoreError) -> String {
        customerId(transactions[Int(try transactionIndex(transactionId))].customer)
    }

    // MARK: Building blocks the actions share

    /// The customer `id`, created (with its app transaction) when new.
    mutating func customer(creating id: String, storefront: Storefront = .usa) -> Int32 {
        if let index = customerIndex[id] { return index }
        let index = Int32(customers.count)
        let appTransactionId = 704_000_000_000_000_000 + (UInt64(index) &* 7_919 &+ configuration.seed % 1_000_000_007) % 1_000_000_000_000_000
        customers.append(StoreCustomer(id: id, storefront: storefront, appTransactionId: appTransactionId,
                                       firstDownloadDate: now, transactions: []))
        customerIndex[id] = index
        appTransactionIndex[appTransactionId] = index
        return index
    }

    mutating func append(_ transaction: StoreTransaction) -> Int32 {
        let index = Int32(transactions.count)
        transactions.append(transaction)
        transactionIndex[transaction.transactionId] = index
        if transaction.orderId != 0 { orderIndex[transaction.orderId] = index }
        if let purchaser = transaction.sharedFrom { familyCopies[purchaser, default: []].append(index) }
        customers[Int(transaction.customer)].transactions.append(index)
        return index
    }

    mutating func record(_ kind: StoreEvent.Kind, customer: Int32, transaction: Int32?, into result: inout StoreActionResult) {
        let record = transaction.map { transactions[Int($0)] }
        let event = StoreEvent(sequence: eventCount + 1, date: now, kind: kind, customerId: customerId(customer),
                               productId: record.map { product($0.product).id },
                               transactionNumber: record?.transactionId, originalTransactionNumber: record?.originalTransactionId,
                               subject: transaction.map { eventSubject(transaction: $0) })
        events.append(event)
        result.events.append(event)
    }

    /// Records the subscription's next due date (or none) in the due queue.
    mutating func reschedule(_ index: Int32) {
        subscriptions[Int(index)].dueGeneration &+= 1
        let subscription = subscriptions[Int(index)]
        guard let date = dueDate(of: subscription) else { return }
        dueQueue.insert(.init(date: date, subscription: index, generation: subscription.dueGeneration))
    }

    /// When the clock next changes the subscription by itself. Family members' copies
    /// follow their purchaser's subscription and have no dates of their own.
    func dueDate(of subscription: StoreSubscription) -> StoreInstant? {
        guard subscription.ownership == .purchased else { return nil }
        switch subscription.status {
        case .active: return subscription.expiresDate
        case .billingGracePeriod: return subscription.gracePeriodExpiresDate
        case .billingRetry: return subscription.billingRetryEndDate
        case .expired, .revoked: return nil
        }
    }
}

/// A single renewal-date extension request: the subscription and the developer's identifier.
struct SingleExtensionKey: Hashable {
    let originalTransactionId: UInt64
    let requestIdentifier: String
}

/// A renewal-date extension for all active subscribers of a product (Extend
/// Subscription Renewal Dates for All Active Subscribers), done at once.
public struct MassExtension: Sendable, Hashable, Codable {
    /// The developer's identifier of the request.
    public var requestIdentifier: String
    /// The auto-renewable subscription extended.
    public var productId: String
    /// How many days each subscription was extended by.
    public var extendByDays: Int
    /// Why, as Apple's code.
    public var extendReasonCode: ExtendReasonCode
    /// The storefronts covered; nil for every storefront.
    public var storefrontCountryCodes: [String]?
    /// True once every subscription was tried (here at once).
    public var complete: Bool
    /// When it completed.
    public var completeDate: StoreInstant
    /// How many subscriptions were extended.
    public var succeededCount: Int
    /// How many could not be.
    public var failedCount: Int
}
