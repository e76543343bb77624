import StoreKit2

/// Apple's App Store Server API errors: every code of the `APIError` enum of Apple's
/// app-store-server-library (Python), with Apple's name, the HTTP status it travels
/// with (the code's first three digits), its message and whether a client may retry.
/// A test reads the installed library's enum and requires the same codes and names.
///
/// Messages, and where each comes from (`messageSource`):
/// - `.appleFixture`: Apple's own response fixtures (`tests/resources/models/*.json`
///   of the Python library);
/// - `.goIAP`: awa/go-iap's `api/error.go` (also in PHP clients), which copies Apple's
///   error-code documentation, punctuation quirks included ("Invalid request. Invalid
///   request. App transactions …" for 4000048);
/// - `.forge`: ours, in Apple's style ("Invalid request. The … is invalid.", "… not
///   found.", "Forbidden - …"), for codes neither source gives a message for (Retention
///   Messaging, performance tests, `excludeRevoked`).
public enum StoreAPIError: Int, CaseIterable, Sendable {
    case generalBadRequest = 4000000
    case invalidAppIdentifier = 4000002
    case invalidRequestRevision = 4000005
    case invalidTransactionId = 4000006
    case invalidOriginalTransactionId = 4000008
    case invalidExtendByDays = 4000009
    case invalidExtendReasonCode = 4000010
    case invalidRequestIdentifier = 4000011
    case startDateTooFarInPast = 4000012
    case startDateAfterEndDate = 4000013
    case invalidPaginationToken = 4000014
    case invalidStartDate = 4000015
    case invalidEndDate = 4000016
    case paginationTokenExpired = 4000017
    case invalidNotificationType = 4000018
    case multipleFiltersSupplied = 4000019
    case invalidTestNotificationToken = 4000020
    case invalidSort = 4000021
    case invalidProductType = 4000022
    case invalidProductId = 4000023
    case invalidSubscriptionGroupIdentifier = 4000024
    case invalidExcludeRevoked = 4000025
    case invalidInAppOwnershipType = 4000026
    case invalidEmptyStorefrontCountryCodeList = 4000027
    case invalidStorefrontCountryCode = 4000028
    case invalidRevoked = 4000030
    case invalidStatus = 4000031
    case invalidAccountTenure = 4000032
    case invalidAppAccountToken = 4000033
    case invalidConsumptionStatus = 4000034
    case invalidCustomerConsented = 4000035
    case invalidDeliveryStatus = 4000036
    case invalidLifetimeDollarsPurchased = 4000037
    case invalidLifetimeDollarsRefunded = 4000038
    case invalidPlatform = 4000039
    case invalidPlayTime = 4000040
    case invalidSampleContentProvided = 4000041
    case invalidUserStatus = 4000042
    case invalidTransactionNotConsumable = 4000043
    case invalidTransactionTypeNotSupported = 4000047
    case appTransactionIdNotSupportedError = 4000048
    case invalidImage = 4000161
    case headerTooLong = 4000162
    case bodyTooLong = 4000163
    case invalidLocale = 4000164
    case altTextTooLong = 4000175
    case invalidAppAccountTokenUuidError = 4000183
    case familyTransactionNotSupportedError = 4000185
    case transactionIdIsNotOriginalTransactionIdError = 4000187
    case invalidPerformanceTestRequest = 4000211
    case invalidRequestId = 4000212
    case existingPerformanceTestRun = 4000213
    case badRequestRealtimeUrl = 4000215
    case badRequestImageSize = 4000216
    case badRequestTooManyBulletPoints = 4000218
    case badRequestBulletPointTextTooLong = 4000219
    case badRequestAboveImageRequiresAnImage = 4000224
    case subscriptionExtensionIneligible = 4030004
    case subscriptionMaxExtension = 4030005
    case familySharedSubscriptionExtensionIneligible = 4030007
    case maximumNumberOfImagesReached = 4030014
    case maximumNumberOfMessagesReached = 4030016
    case messageNotApproved = 4030017
    case imageNotApproved = 4030018
    case imageInUse = 4030019
    case forbiddenNoPassingTest = 4030026
    case accountNotFound = 4040001
    case accountNotFoundRetryable = 4040002
    case appNotFound = 4040003
    case appNotFoundRetryable = 4040004
    case originalTransactionIdNotFound = 4040005
    case originalTransactionIdNotFoundRetryable = 4040006
    case serverNotificationUrlNotFound = 4040007
    case testNotificationNotFound = 4040008
    case statusRequestNotFound = 4040009
    case transactionIdNotFound = 4040010
    case imageNotFound = 4040014
    case messageNotFound = 4040015
    case performanceTestRunNotFound = 4040018
    case appTransactionDoesNotExistError = 4040019
    case defaultMessageNotFound = 4040020
    case realtimeUrlNotFound = 4040021
    case imageAlreadyExists = 4090000
    case messageAlreadyExists = 4090001
    case rateLimitExceeded = 4290000
    case generalInternal = 5000000
    case generalInternalRetryable = 5000001

    public enum MessageSource: String, Sendable, CaseIterable {
        case appleFixture
        case goIAP
        case forge
    }

    /// The error code (`errorCode` in the body).
    public var code: Int { rawValue }

    /// The HTTP status the error is sent with: the code's first three digits.
    public var httpStatus: Int { rawValue / 10_000 }

    /// Apple's name, as the Python enum spells it (`TRANSACTION_ID_NOT_FOUND`).
    public var name: String { entry.name }

    /// `errorMessage` in the body.
    public var message: String { entry.message }

    public var messageSource: MessageSource { entry.source }

    /// Whether Apple tells clients to try again later (its "…Retryable" errors).
    public var isRetryable: Bool {
        switch self {
        case .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable,
             .generalInternalRetryable:
            return true
        default:
            return false
        }
    }

    /// The response body: `{"errorCode":N,"errorMessage":"…"}`, compact, as Apple sends it.
    public var body: [UInt8] { StoreKit2JSON.encode(Body(errorCode: rawValue, errorMessage: message)) }

    /// The body's shape (keys in Apple's order, which is also sorted order).
    public struct Body: Codable, Sendable, Hashable {
        public let errorCode: Int
        public let errorMessage: String

        public init(errorCode: Int, errorMessage: String) {
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }
    }

    /// The `Content-Type` of an error response, exactly: Apple's Python client reads
    /// the body of an error only when the header is this string, with no parameter.
    public static let contentType = "application/json"

    /// The one table: Apple's name, the message and where the message comes from.
    private var entry: (name: String, message: String, source: MessageSource) {
        switch self {
        case .generalBadRequest: return ("GENERAL_BAD_REQUEST", "Bad request.", .goIAP)
        case .invalidAppIdentifier: return ("INVALID_APP_IDENTIFIER", "Invalid request app identifier.", .goIAP)
        case .invalidRequestRevision: return ("INVALID_REQUEST_REVISION", "Invalid request revision.", .goIAP)
        case .invalidTransactionId: return ("INVALID_TRANSACTION_ID", "Invalid transaction id.", .appleFixture)
        case .invalidOriginalTransactionId: return ("INVALID_ORIGINAL_TRANSACTION_ID", "Invalid original transaction id.", .goIAP)
        case .invalidExtendByDays: return ("INVALID_EXTEND_BY_DAYS", "Invalid extend by days value.", .goIAP)
        case .invalidExtendReasonCode: return ("INVALID_EXTEND_REASON_CODE", "Invalid extend reason code.", .goIAP)
        case .invalidRequestIdentifier: return ("INVALID_REQUEST_IDENTIFIER", "Invalid request identifier.", .goIAP)
        case .startDateTooFarInPast: return ("START_DATE_TOO_FAR_IN_PAST", "Invalid request. The start date is earlier than the allowed start date.", .goIAP)
        case .startDateAfterEndDate: return ("START_DATE_AFTER_END_DATE", "Invalid request. The end date precedes the start date or the dates are the same.", .goIAP)
        case .invalidPaginationToken: return ("INVALID_PAGINATION_TOKEN", "Invalid request. The pagination token is invalid.", .goIAP)
        case .invalidStartDate: return ("INVALID_START_DATE", "Invalid request. The start date is not a timestamp value represented in milliseconds.", .goIAP)
        case .invalidEndDate: return ("INVALID_END_DATE", "Invalid request. The end date is not a timestamp value represented in milliseconds.", .goIAP)
        case .paginationTokenExpired: return ("PAGINATION_TOKEN_EXPIRED", "Invalid request. The pagination token is expired.", .goIAP)
        case .invalidNotificationType: return ("INVALID_NOTIFICATION_TYPE", "Invalid request. The notification type or subtype is invalid.", .goIAP)
        case .multipleFiltersSupplied: return ("MULTIPLE_FILTERS_SUPPLIED", "Invalid request. Supply either a transaction id or a notification type, but not both.", .goIAP)
        case .invalidTestNotificationToken: return ("INVALID_TEST_NOTIFICATION_TOKEN", "Invalid request. The test notification token is invalid.", .goIAP)
        case .invalidSort: return ("INVALID_SORT", "Invalid request. The sort parameter is invalid.", .goIAP)
        case .invalidProductType: return ("INVALID_PRODUCT_TYPE", "Invalid request. The product type parameter is invalid.", .goIAP)
        case .invalidProductId: return ("INVALID_PRODUCT_ID", "Invalid request. The product id parameter is invalid.", .goIAP)
        case .invalidSubscriptionGroupIdentifier: return ("INVALID_SUBSCRIPTION_GROUP_IDENTIFIER", "Invalid request. The subscription group identifier parameter is invalid.", .goIAP)
        case .invalidExcludeRevoked: return ("INVALID_EXCLUDE_REVOKED", "Invalid request. The exclude revoked parameter is invalid.", .forge)
        case .invalidInAppOwnershipType: return ("INVALID_IN_APP_OWNERSHIP_TYPE", "Invalid request. The in-app ownership type parameter is invalid.", .goIAP)
        case .invalidEmptyStorefrontCountryCodeList: return ("INVALID_EMPTY_STOREFRONT_COUNTRY_CODE_LIST", "Invalid request. If provided, the list of storefront country codes must not be empty.", .goIAP)
        case .invalidStorefrontCountryCode: return ("INVALID_STOREFRONT_COUNTRY_CODE", "Invalid request. A storefront country code was invalid.", .goIAP)
        case .invalidRevoked: return ("INVALID_REVOKED", "Invalid request. The revoked parameter is invalid.", .goIAP)
        case .invalidStatus: return ("INVALID_STATUS", "Invalid request. The status parameter is invalid.", .goIAP)
        case .invalidAccountTenure: return ("INVALID_ACCOUNT_TENURE", "Invalid request. The account tenure field is invalid.", .goIAP)
        case .invalidAppAccountToken: return ("INVALID_APP_ACCOUNT_TOKEN", "Invalid request. The app account token field must contain a valid UUID or an empty string.", .goIAP)
        case .invalidConsumptionStatus: return ("INVALID_CONSUMPTION_STATUS", "Invalid request. The consumption status field is invalid.", .goIAP)
        case .invalidCustomerConsented: return ("INVALID_CUSTOMER_CONSENTED", "Invalid request. The customer consented field is required and must indicate the customer consented", .goIAP)
        case .invalidDeliveryStatus: return ("INVALID_DELIVERY_STATUS", "Invalid request. The delivery status field is invalid", .goIAP)
        case .invalidLifetimeDollarsPurchased: return ("INVALID_LIFETIME_DOLLARS_PURCHASED", "Invalid request. The lifetime dollars purchased field is invalid", .goIAP)
        case .invalidLifetimeDollarsRefunded: return ("INVALID_LIFETIME_DOLLARS_REFUNDED", "Invalid request. The lifetime dollars refunded field is invalid", .goIAP)
        case .invalidPlatform: return ("INVALID_PLATFORM", "Invalid request. The platform field is invalid", .goIAP)
        case .invalidPlayTime: return ("INVALID_PLAY_TIME", "Invalid request. The playtime field is invalid", .goIAP)
        case .invalidSampleContentProvided: return ("INVALID_SAMPLE_CONTENT_PROVIDED", "Invalid request. The sample content provided field is invalid", .goIAP)
        case .invalidUserStatus: return ("INVALID_USER_STATUS", "Invalid request. The user status field is invalid", .goIAP)
        case .invalidTransactionNotConsumable: return ("INVALID_TRANSACTION_NOT_CONSUMABLE", "Invalid request. The transaction id parameter must represent a consumable in-app purchase", .goIAP)
        case .invalidTransactionTypeNotSupported: return ("INVALID_TRANSACTION_TYPE_NOT_SUPPORTED", "Invalid request. The transaction id doesn't represent a supported in-app purchase type", .goIAP)
        case .appTransactionIdNotSupportedError: return ("APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR", "Invalid request. Invalid request. App transactions aren't supported by this endpoint", .goIAP)
        case .invalidImage: return ("INVALID_IMAGE", "Invalid request. The image is invalid.", .forge)
        case .headerTooLong: return ("HEADER_TOO_LONG", "Invalid request. The header text is too long.", .forge)
        case .bodyTooLong: return ("BODY_TOO_LONG", "Invalid request. The body text is too long.", .forge)
        case .invalidLocale: return ("INVALID_LOCALE", "Invalid request. The locale is invalid.", .forge)
        case .altTextTooLong: return ("ALT_TEXT_TOO_LONG", "Invalid request. The alternative text is too long.", .forge)
        case .invalidAppAccountTokenUuidError: return ("INVALID_APP_ACCOUNT_TOKEN_UUID_ERROR", "Invalid request. The app account token field must be a valid UUID.", .appleFixture)
        case .familyTransactionNotSupportedError: return ("FAMILY_TRANSACTION_NOT_SUPPORTED_ERROR", "Invalid request. Family Sharing transactions aren't supported by this endpoint.", .appleFixture)
        case .transactionIdIsNotOriginalTransactionIdError: return ("TRANSACTION_ID_IS_NOT_ORIGINAL_TRANSACTION_ID_ERROR", "Invalid request. The transaction ID provided is not an original transaction ID.", .appleFixture)
        case .invalidPerformanceTestRequest: return ("INVALID_PERFORMANCE_TEST_REQUEST", "Invalid request. The performance test request is invalid.", .forge)
        case .invalidRequestId: return ("INVALID_REQUEST_ID", "Invalid request. The request id is invalid.", .forge)
        case .existingPerformanceTestRun: return ("EXISTING_PERFORMANCE_TEST_RUN", "Invalid request. A performance test is already running.", .forge)
        case .badRequestRealtimeUrl: return ("BAD_REQUEST_REALTIME_URL", "Invalid request. The URL is invalid.", .forge)
        case .badRequestImageSize: return ("BAD_REQUEST_IMAGE_SIZE", "Invalid request. The image size is invalid.", .forge)
        case .badRequestTooManyBulletPoints: return ("BAD_REQUEST_TOO_MANY_BULLET_POINTS", "Invalid request. There are too many bullet points.", .forge)
        case .badRequestBulletPointTextTooLong: return ("BAD_REQUEST_BULLET_POINT_TEXT_TOO_LONG", "Invalid request. The bullet point text is too long.", .forge)
        case .badRequestAboveImageRequiresAnImage: return ("BAD_REQUEST_ABOVE_IMAGE_REQUIRES_AN_IMAGE", "Invalid request. A header placed above the image requires an image.", .forge)
        case .subscriptionExtensionIneligible: return ("SUBSCRIPTION_EXTENSION_INELIGIBLE", "Forbidden - subscription state ineligible for extension.", .goIAP)
        case .subscriptionMaxExtension: return ("SUBSCRIPTION_MAX_EXTENSION", "Forbidden - subscription has reached maximum extension count.", .goIAP)
        case .familySharedSubscriptionExtensionIneligible: return ("FAMILY_SHARED_SUBSCRIPTION_EXTENSION_INELIGIBLE", "Subscriptions that users obtain through Family Sharing can't get a renewal date extension directly.", .goIAP)
        case .maximumNumberOfImagesReached: return ("MAXIMUM_NUMBER_OF_IMAGES_REACHED", "Forbidden - the maximum number of images is reached.", .forge)
        case .maximumNumberOfMessagesReached: return ("MAXIMUM_NUMBER_OF_MESSAGES_REACHED", "Forbidden - the maximum number of messages is reached.", .forge)
        case .messageNotApproved: return ("MESSAGE_NOT_APPROVED", "Forbidden - the message is not approved.", .forge)
        case .imageNotApproved: return ("IMAGE_NOT_APPROVED", "Forbidden - the image is not approved.", .forge)
        case .imageInUse: return ("IMAGE_IN_USE", "Forbidden - the image is in use.", .forge)
        case .forbiddenNoPassingTest: return ("FORBIDDEN_NO_PASSING_TEST", "Forbidden - a passing performance test is required.", .forge)
        case .accountNotFound: return ("ACCOUNT_NOT_FOUND", "Account not found.", .goIAP)
        case .accountNotFoundRetryable: return ("ACCOUNT_NOT_FOUND_RETRYABLE", "Account not found. Please try again.", .goIAP)
        case .appNotFound: return ("APP_NOT_FOUND", "App not found.", .goIAP)
        case .appNotFoundRetryable: return ("APP_NOT_FOUND_RETRYABLE", "App not found. Please try again.", .goIAP)
        case .originalTransactionIdNotFound: return ("ORIGINAL_TRANSACTION_ID_NOT_FOUND", "Original transaction id not found.", .goIAP)
        case .originalTransactionIdNotFoundRetryable: return ("ORIGINAL_TRANSACTION_ID_NOT_FOUND_RETRYABLE", "Original transaction id not found. Please try again.", .goIAP)
        case .serverNotificationUrlNotFound: return ("SERVER_NOTIFICATION_URL_NOT_FOUND", "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment.", .goIAP)
        case .testNotificationNotFound: return ("TEST_NOTIFICATION_NOT_FOUND", "Either the test notification token is expired or the notification and status are not yet available.", .goIAP)
        case .statusRequestNotFound: return ("STATUS_REQUEST_NOT_FOUND", "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.", .goIAP)
        case .transactionIdNotFound: return ("TRANSACTION_ID_NOT_FOUND", "Transaction id not found.", .appleFixture)
        case .imageNotFound: return ("IMAGE_NOT_FOUND", "Image not found.", .forge)
        case .messageNotFound: return ("MESSAGE_NOT_FOUND", "Message not found.", .forge)
        case .performanceTestRunNotFound: return ("PERFORMANCE_TEST_RUN_NOT_FOUND", "Performance test run not found.", .forge)
        case .appTransactionDoesNotExistError: return ("APP_TRANSACTION_DOES_NOT_EXIST_ERROR", "No AppTransaction exists for the customer.", .appleFixture)
        case .defaultMessageNotFound: return ("DEFAULT_MESSAGE_NOT_FOUND", "Default message not found.", .forge)
        case .realtimeUrlNotFound: return ("REALTIME_URL_NOT_FOUND", "Realtime URL not found.", .forge)
        case .imageAlreadyExists: return ("IMAGE_ALREADY_EXISTS", "Image already exists.", .forge)
        case .messageAlreadyExists: return ("MESSAGE_ALREADY_EXISTS", "Message already exists.", .forge)
        case .rateLimitExceeded: return ("RATE_LIMIT_EXCEEDED", "Rate limit exceeded.", .appleFixture)
        case .generalInternal: return ("GENERAL_INTERNAL", "An unknown error occurred.", .appleFixture)
        case .generalInternalRetryable: return ("GENERAL_INTERNAL_RETRYABLE", "An unknown error occurred. Please try again.", .goIAP)
        }
    }
}
