/// Why the store refused an action or a query: a code, the field of the request that
/// is wrong, and a sentence saying why. Nothing changed in the store when one is thrown.
/// The store knows no HTTP: the Server API answers each code with Apple's error
/// (`StoreAPIError.init?(_: StoreError.Code)`, in StoreServerAPI), the control API with its own.
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
        /// An app transaction id where only a transaction id is taken (Apple's
        /// `AppTransactionIdNotSupportedError`).
        case appTransactionIdNotSupported
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
        /// A storefront code that is not a storefront the store knows.
        case invalidStorefrontCountryCode
        /// An empty storefront list (Apple's `InvalidEmptyStorefrontCountryCodeListError`).
        case emptyStorefrontCountryCodes
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
        /// A consumption percentage other than 0 for a purchase that was not delivered
        /// (Apple's `UndeliveredConsumptionPercentageNonZeroError`, which has no number).
        case undeliveredConsumptionPercentageNonZero
        /// A consumption percentage for an auto-renewable subscription (Apple's
        /// `ConsumptionPercentageAutoRenewableSubscriptionError`, which has no number).
        case consumptionPercentageAutoRenewableSubscription
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
        /// The clock would pass the `notAfter` of the certificates the store signs with
        /// (`StoreState.signingCertificateNotAfter`): Apple's verifier would refuse every
        /// JWS and receipt signed after it.
        case pastSigningCertificate
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
