/// The control API's verbs: the last component of `/forge/v1/VERB` (production) or
/// `/sandbox/forge/v1/VERB` (sandbox). Names are SKTestSession's where Apple has one.
public enum ControlVerb: String, Sendable, Hashable, CaseIterable {
    case buyProduct
    case forceRenewalOfSubscription
    case expireSubscription
    case failRenewal
    case recoverBilling
    case disableAutoRenewForTransaction
    case enableAutoRenewForTransaction
    case changeRenewalProduct
    case refundTransaction
    case declineRefund
    case reverseRefund
    case revokeTransaction
    case requestConsumptionInformation
    case priceIncrease
    case acceptPriceIncrease
    case advanceClock
    case resetToDefaultState
    case clearTransactions
    /// The receipt the customer's device would hold now, minted by the receipt forge.
    case receipt
    /// The whole store as JSON (`Schemas/store-state.schema.json`).
    case state

    /// The one HTTP method the verb answers: reading the state is a GET, every action a POST.
    public var method: String { self == .state ? "GET" : "POST" }
}
