import LocalAppStore
import StoreAPIAuthentication

extension StoreAPIError {
    /// Apple's error for the store's refusal `code`; nil for the refusals the App Store
    /// Server API has no code of its own for (the Server API answers those 4000000,
    /// `ServerAPIError.init(_:)`). Exhaustive: a new store code does not compile until
    /// it is given Apple's error or nil here.
    public init?(_ code: StoreError.Code) {
        switch code {
        case .invalidTransactionId: self = .invalidTransactionId
        case .invalidOriginalTransactionId: self = .invalidOriginalTransactionId
        case .transactionNotFound: self = .transactionIdNotFound
        case .appTransactionIdNotSupported: self = .appTransactionIdNotSupportedError
        case .originalTransactionNotFound: self = .originalTransactionIdNotFound
        case .invalidAppAccountToken: self = .invalidAppAccountTokenUuidError
        case .invalidRevision: self = .invalidRequestRevision
        case .startDateAfterEndDate: self = .startDateAfterEndDate
        case .invalidExtendByDays: self = .invalidExtendByDays
        case .invalidRequestIdentifier: self = .invalidRequestIdentifier
        case .invalidStorefrontCountryCode: self = .invalidStorefrontCountryCode
        case .emptyStorefrontCountryCodes: self = .invalidEmptyStorefrontCountryCodeList
        case .subscriptionExtensionIneligible: self = .subscriptionExtensionIneligible
        case .subscriptionMaxExtension: self = .subscriptionMaxExtension
        case .familySharedSubscriptionExtensionIneligible: self = .familySharedSubscriptionExtensionIneligible
        case .familyTransactionNotSupported: self = .familyTransactionNotSupportedError
        case .transactionTypeNotSupported: self = .invalidTransactionTypeNotSupported
        case .transactionIdIsNotOriginalTransactionId: self = .transactionIdIsNotOriginalTransactionIdError
        case .statusRequestNotFound: self = .statusRequestNotFound
        case .invalidProductId: self = .invalidProductId
        case .appTransactionDoesNotExist: self = .appTransactionDoesNotExistError
        // Apple names the two consumption-percentage errors (ConsumptionPercentage page) but
        // gives them no number, nor do its libraries' APIError enums: 4000000.
        case .invalidValue, .customerNotFound, .productNotFound, .invalidState, .clockMovesForward,
             .undeliveredConsumptionPercentageNonZero, .consumptionPercentageAutoRenewableSubscription, .pastSigningCertificate: return nil
        }
    }
}
