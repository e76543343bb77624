/// Why the store refused an action or a query: a code, the field of the request that
/// is wrong, and a sentence saying why. Nothing changed in the store when one is thrown.
/// Codes that the App Store Server API also has carry Apple's number, so the HTTP layer
/// answers as Apple does (`appleErrorCode`); the others are the control API's own.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// A value that is not of the expected form (an empty id, a bad UUID, a negative quantity).
        case invalidValue
        case invalidTransactionId
        case invalidOriginalTransactionId
        case transactionNotFound
        case originalTransactionNotFound
        case customerNotFound
        case productNotFound
        case invalidAppAccountToken
        case invalidRevision
        case startDateAfterEndDate
        case invalidExtendByDays
        case invalidRequestIdentifier
        case invalidStorefrontCountryCode
        case subscriptionExtensionIneligible
        case subscriptionMaxExtension
        case familySharedSubscriptionExtensionIneligible
        case familyTransactionNotSupported
        /// Send Consumption Information v1 for a product type it does not take.
        case transactionTypeNotSupported
        case transactionIdIsNotOriginalTransactionId
        case statusRequestNotFound
        case invalidProductId
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

    public var code: Code
    /// The request field at fault (`transactionId`, `productId`, `extendByDays` …).
    public var field: String
    public var reason: String

    public init(_ code: Code, field: String, _ reason: String) {
        self.code = code
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason) (\(code.rawValue))" }
}
