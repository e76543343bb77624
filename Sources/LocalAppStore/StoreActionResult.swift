/// What an action did: the ids it created and the events it added, so a caller (the
/// control API) can answer with them.
public struct StoreActionResult: Sendable, Hashable, Encodable {
    /// Transactions the action created, the buyer's first, then family members' copies.
    public var transactionIds: [String] = []
    public var originalTransactionId: String?
    public var orderId: String?
    /// A renewal-date extension's effective date (the new expiry) and the period it moved.
    public var effectiveDate: StoreInstant?
    public var webOrderLineItemId: String?
    public var requestIdentifier: String?
    /// The events the action added, in order (clock moves may add many).
    public var events: [StoreEvent] = []

    public init() {}
}
