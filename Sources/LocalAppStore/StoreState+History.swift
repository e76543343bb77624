import AppInput
import ForgeSupport
import StoreKit2

/// The filters of Get Transaction History (all optional; values of one filter OR'd,
/// filters AND'd), its sort and the revision of the page to continue from.
public struct HistoryQuery: Sendable, Hashable {
    /// The order of purchase dates.
    public enum Sort: String, Sendable, Hashable, CaseIterable {
        /// Oldest first.
        case ascending = "ASCENDING"
        /// Newest first.
        case descending = "DESCENDING"
    }

    /// v1 leaves out finished consumables that are not refunded; v2 has everything.
    public enum Version: Sendable, Hashable {
        /// Get Transaction History v1 or v2.
        case v1, v2
    }

    /// Purchase dates at or after it.
    public var startDate: StoreInstant?
    /// Purchase dates before it.
    public var endDate: StoreInstant?
    /// Only these products (any, when empty).
    public var productIds: [String]
    /// Only these product types (any, when empty).
    public var productTypes: [Product.Kind]
    /// Only these subscription groups (any, when empty).
    public var subscriptionGroupIdentifiers: [String]
    /// Only purchased, or only family-shared, transactions; nil for both.
    public var inAppOwnershipType: OwnershipType?
    /// true: only revoked (refunded) transactions; false: only the others.
    public var revoked: Bool?
    /// The order of purchase dates.
    public var sort: Sort
    /// The previous page's `revision`; nil for the first page.
    public var revision: String?
    /// v1 or v2 of the endpoint.
    public var version: Version

    /// A query; with no arguments, every transaction, oldest first, from the first page, v2.
    public init(startDate: StoreInstant? = nil, endDate: StoreInstant? = nil, productIds: [String] = [],
                productTypes: [Product.Kind] = [], subscriptionGroupIdentifiers: [String] = [],
                inAppOwnershipType: OwnershipType? = nil, revoked: Bool? = nil, sort: Sort = .ascending,
                revision: String? = nil, version: Version = .v2) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
        self.sort = sort
        self.revision = revision
        self.version = version
    }
}

/// A page of signed-to-be transactions and where the next page starts.
public struct TransactionPage: Sendable, Hashable {
    /// The transactions of this page, in the query's order.
    public var transactions: [JWSTransactionDecodedPayload]
    /// Opaque; names the last transaction of this page, so the next page starts after it
    /// however many transactions arrive meanwhile.
    public var revision: String
    /// True when another page follows.
    public var hasMore: Bool
}

/// Look Up Order ID's answer: `status` 0 with the order's transactions, or 1 (invalid).
public struct OrderLookup: Sendable, Hashable {
    /// 0: the order exists; 1: it does not.
    public var status: Int
    /// The order's transactions; empty when `status` is 1.
    public var transactions: [JWSTransactionDecodedPayload]
}

extension StoreState {
    /// Transactions per page of the history and the refund history.
    public static let pageSize = 20

    /// Get Transaction History for the customer of `transactionId` (any of their
    /// transaction ids or their app transaction id). Transactions are
    /// ordered by purchase date, then transaction id — keys that never change — and a
    /// revision names the last key returned, so pages stay stable when transactions
    /// are added, refunded or finished between calls.
    public func transactionHistory(transactionId: String, query: HistoryQuery = HistoryQuery()) throws(StoreError) -> TransactionPage {
        if let start = query.startDate, let end = query.endDate, start > end {
            throw StoreError(.startDateAfterEndDate, field: "startDate", "\(start) is after endDate \(end)")
        }
        let customer = try customerIndex(anyTransactionId: transactionId)
        let cursor = try query.revision.map { revision throws(StoreError) in try Self.cursor(revision, sort: query.sort) }
        let productFilter = Set(query.productIds)
        let kindFilter = Set(query.productTypes)
        let groupFilter = Set(query.subscriptionGroupIdentifiers)
        let matching = customers[Int(customer)].transactions.lazy.map { self.transactions[Int($0)] }.filter { transaction in
            let product = self.product(transaction.product)
            if query.version == .v1, !self.appearsInReceipt(transaction) { return false }
            if let start = query.startDate, transaction.purchaseDate < start { return false }
            if let end = query.endDate, transaction.purchaseDate >= end { return false }
            if !productFilter.isEmpty, !productFilter.contains(product.id) { return false }
            if !kindFilter.isEmpty, !kindFilter.contains(product.kind) { return false }
            if !groupFilter.isEmpty, !(product.group.map { groupFilter.contains(self.groups[Int($0)]) } ?? false) { return false }
            if let ownership = query.inAppOwnershipType, transaction.ownership != ownership { return false }
            if let revoked = query.revoked, transaction.isRevoked != revoked { return false }
            return true
        }
        return page(Array(matching), key: { ($0.purchaseDate, $0.transactionId) }, sort: query.sort, after: cursor,
                    revision: query.revision)
    }

    /// Get Refund History: the refunded transactions of the customer of `transactionId`
    /// (any of their transaction ids or their app transaction id), by refund date.
    public func refundHistory(transactionId: String, revision: String? = nil) throws(StoreError) -> TransactionPage {
        let customer = try customerIndex(anyTransactionId: transactionId)
        let cursor = try revision.map { revision throws(StoreError) in try Self.cursor(revision, sort: .ascending) }
        let refunded = customers[Int(customer)].transactions.map { transactions[Int($0)] }.filter {
            $0.isRevoked && $0.ownership == .purchased
        }
        return page(refunded, key: { ($0.revocationDate ?? 0, $0.transactionId) }, sort: .ascending, after: cursor, revision: revision)
    }

    /// Look Up Order ID.
    public func lookUpOrder(orderId: String) -> OrderLookup {
        guard let number = orderNumber(orderId), let index = orderIndex[number] else {
            return OrderLookup(status: 1, transactions: [])
        }
        return OrderLookup(status: 0, transactions: [transactionPayload(transactions[Int(index)])])
    }

    /// The order id of a transaction (nil for a family member's copy).
    public func orderId(of transaction: StoreTransaction) -> String? {
        transaction.orderId == 0 ? nil : orderIdText(transaction.orderId)
    }

    private func page(_ candidates: [StoreTransaction], key: (StoreTransaction) -> (StoreInstant, UInt64),
                      sort: HistoryQuery.Sort, after cursor: (StoreInstant, UInt64)?, revision: String?) -> TransactionPage {
        let ascending = sort == .ascending
        var ordered = candidates.sorted { ascending ? key($0) < key($1) : key($0) > key($1) }
        if let cursor {
            ordered = ordered.filter { ascending ? key($0) > cursor : key($0) < cursor }
        }
        let pageItems = ordered.prefix(Self.pageSize)
        let last = pageItems.last.map(key)
        let nextRevision = last.map { Self.revision($0, sort: sort) } ?? revision ?? Self.revision(ascending ? (.min, 0) : (.max, .max), sort: sort)
        return TransactionPage(transactions: pageItems.map(transactionPayload), revision: nextRevision,
                               hasMore: ordered.count > pageItems.count)
    }

    /// `A` or `D`, then the key as 32 hex digits.
    static func revision(_ key: (StoreInstant, UInt64), sort: HistoryQuery.Sort) -> String {
        (sort == .ascending ? "A" : "D") + UInt64(bitPattern: key.0).zeroPaddedHex + key.1.zeroPaddedHex
    }

    static func cursor(_ revision: String, sort: HistoryQuery.Sort) throws(StoreError) -> (StoreInstant, UInt64) {
        let utf8 = Array(revision.utf8)
        let hexDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
        guard utf8.count == 33, utf8[0] == (sort == .ascending ? UInt8(ascii: "A") : UInt8(ascii: "D")), utf8.dropFirst().allSatisfy(hexDigit),
              let date = UInt64(String(decoding: utf8[1..<17], as: UTF8.self), radix: 16),
              let id = UInt64(String(decoding: utf8[17...], as: UTF8.self), radix: 16) else {
            throw StoreError(.invalidRevision, field: "revision",
                             "'\(revision)' is not a revision this store gave for a \(sort.rawValue.lowercased()) query")
        }
        return (StoreInstant(bitPattern: date), id)
    }
}
