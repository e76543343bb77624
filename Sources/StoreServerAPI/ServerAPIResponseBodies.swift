/// The JSON bodies of the App Store Server API's answers, with the names of Apple's
/// models (`HistoryResponse` …). Absent members are left out, as Apple does.
enum ServerAPIResponseBody {
    struct TransactionInfo: Encodable {
        let signedTransactionInfo: String
    }

    struct AppTransactionInfo: Encodable {
        let signedAppTransactionInfo: String
    }

    struct History: Encodable {
        let revision: String
        let hasMore: Bool
        let bundleId: String
        let appAppleId: Int64
        let environment: String
        let signedTransactions: [String]
    }

    struct RefundHistory: Encodable {
        let signedTransactions: [String]
        let revision: String
        let hasMore: Bool
    }

    /// Look Up Order ID's answer (https://developer.apple.com/documentation/appstoreserverapi/orderlookupresponse):
    /// without `signedTransactions` when the order id is invalid (`status` 1).
    struct OrderLookup: Encodable {
        /// `OrderLookupStatus` 1: the order id is invalid for the app.
        static let invalid = 1
        let status: Int
        let signedTransactions: [String]?
    }

    struct Status: Encodable {
        let environment: String
        let bundleId: String
        let appAppleId: Int64
        let data: [SubscriptionGroupIdentifierItem]
    }

    struct SubscriptionGroupIdentifierItem: Encodable {
        let subscriptionGroupIdentifier: String
        let lastTransactions: [LastTransactionsItem]
    }

    struct LastTransactionsItem: Encodable {
        let status: Int
        let originalTransactionId: String
        let signedTransactionInfo: String
        let signedRenewalInfo: String
    }

    struct ExtendRenewalDate: Encodable {
        let originalTransactionId: String?
        let webOrderLineItemId: String?
        let success: Bool
        let effectiveDate: Int64?
    }

    struct MassExtendRenewalDate: Encodable {
        let requestIdentifier: String
    }

    struct MassExtendRenewalDateStatus: Encodable {
        let requestIdentifier: String
        let complete: Bool
        let completeDate: Int64
        let succeededCount: Int
        let failedCount: Int
    }

    /// `SendTestNotificationResponse`.
    struct SendTestNotification: Encodable {
        let testNotificationToken: String
    }

    /// `SendAttemptItem`: Apple's two members (not the forge's `detail`).
    struct SendAttemptItem: Encodable {
        let attemptDate: Int64
        let sendAttemptResult: String
    }

    /// `CheckTestNotificationResponse`, and `NotificationHistoryResponseItem` (the same members).
    struct NotificationRecord: Encodable {
        let signedPayload: String
        let sendAttempts: [SendAttemptItem]
    }

    /// `NotificationHistoryResponse`: `paginationToken` only when `hasMore`.
    struct NotificationHistory: Encodable {
        let paginationToken: String?
        let hasMore: Bool
        let notificationHistory: [NotificationRecord]
    }
}
