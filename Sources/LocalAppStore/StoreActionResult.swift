/// What an action did: the ids it created and the events it added, so a caller (the
/// control API) can answer with them.
public struct StoreActionResult: Sendable, Hashable, Encodable {
    /// Transactions the action created, the buyer's first, then family members' copies.
    public var transactionIds: [String] = []
    /// The original transaction id of the subscription or purchase the action concerned.
    public var originalTransactionId: String?
    /// The order id of a purchase (Look Up Order ID).
    public var orderId: String?
    /// A renewal-date extension's effective date (the new expiry) and the period it moved.
    public var effectiveDate: StoreInstant?
    /// The web order line item id of a new subscription period.
    public var webOrderLineItemId: String?
    /// The request identifier of a renewal-date extension.
    public var requestIdentifier: String?
    /// The events the action added, in order (clock moves may add many).
    public var events: [StoreEvent] = []

    /// A result that created nothing.
    public init() {}
}
