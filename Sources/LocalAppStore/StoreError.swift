/// Why the store refused an action or a query: a code, the field of the request that
/// is wrong, and a sentence saying why. Nothing changed in the store when one is thrown.
/// Codes that the App Store Server API also has carry Apple's number, so the HTTP layer
/// answers as Apple does (`appleErrorCode`); the others are the control API's own.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was refused, as a stable code; where Apple has the same refusal, its name.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// A value that is not of the expected form (an empty id, a bad UUID, a negative quantity).
        case invalidValue
        /// A transaction id that is not a number (Apple's `InvalidTransactionIdError`).
        case invalidTransactionId
        /// An original transaction id that is not a number.
        case invalidOriginalTransactionId
        /// No transaction has that id.
        case transactionNotFound
        /// No transaction has that original transaction id.
        case originalTransactionNotFound
        /// No customer has that id.
        case customerNotFound
        /// The app has no product with that id.
        case productNotFound
        /// An app account token that is not a UUID.
        case invalidAppAccountToken
        /// A history revision token the store did not give out.
        case invalidRevision
        /// A query whose start date is after its end date.
        case startDateAfterEndDate
        /// A renewal extension whose number of days is outside what Apple allows.
        case invalidExtendByDays
        /// A mass-extension request identifier that is missing, malformed or already used.
        case invalidRequestIdentifier
        /// An empty storefront list, or a code that is not a storefront the store knows.
        case invalidStorefrontCountryCode
        /// A subscription in a state that cannot be extended (expired, in a free offer period, …).
        case subscriptionExtensionIneligible
        /// A subscription already extended twice in 365 days.
        case subscriptionMaxExtension
        /// A family member's copy, which only the purchaser's subscription extends.
        case familySharedSubscriptionExtensionIneligible
        /// An action that takes the purchaser's transaction, given a family member's copy.
        case familyTransactionNotSupported
        /// Send Consumption Information v1 for a product type it does not take.
        case transactionTypeNotSupported
        /// A transaction id given where the original transaction id is required.
        case transactionIdIsNotOriginalTransactionId
        /// A mass-extension request identifier the store does not know.
        case statusRequestNotFound
        /// A product id the request cannot take (not one of the app's auto-renewable subscriptions).
        case invalidProductId
        /// The customer has no app transaction.
        case appTransactionDoesNotExist
        /// The action does not apply to the transaction or subscription in its present state
        /// (refunding a refund, renewing an expired subscription …).
        case invalidState
        /// The clock may only move forward.
        case clockMovesForward

        /// The App Store Server API's `errorCode` for this refusal, when it has one.
        public var appleErrorCode: Int? {
            switch self {
            case .invalidTransactionId: return 4_000_006
            case .invalidOriginalTransactionId: return 4_000_008
            case .transactionNotFound: return 4_040_010
            case .originalTransactionNotFound: return 4_040_005
            case .invalidAppAccountToken: return 4_000_183
            case .invalidRevision: return 4_000_005
            case .startDateAfterEndDate: return 4_000_013
            case .invalidExtendByDays: return 4_000_009
            case .invalidRequestIdentifier: return 4_000_011
            case .invalidStorefrontCountryCode: return 4_000_028
            case .subscriptionExtensionIneligible: return 4_030_004
            case .subscriptionMaxExtension: return 4_030_005
            case .familySharedSubscriptionExtensionIneligible: return 4_030_007
            case .familyTransactionNotSupported: return 4_000_185
            case .transactionTypeNotSupported: return 4_000_047
            case .transactionIdIsNotOriginalTransactionId: return 4_000_187
            case .statusRequestNotFound: return 4_040_009
            case .invalidProductId: return 4_000_023
            case .appTransactionDoesNotExist: return 4_040_019
            case .invalidValue, .customerNotFound, .productNotFound, .invalidState, .clockMovesForward: return nil
            }
        }
    }

    /// What was refused.
    public var code: Code
    /// The request field at fault (`transactionId`, `productId`, `extendByDays` …).
    public var field: String
    /// Why, in a sentence.
    public var reason: String

    /// A refusal of `field` with `code`, explained by `reason`.
    public init(_ code: Code, field: String, _ reason: String) {
        self.code = code
        self.field = field
        self.reason = reason
    }

    /// `field: reason (code)`.
    public var description: String { "\(field): \(reason) (\(code.rawValue))" }
}
