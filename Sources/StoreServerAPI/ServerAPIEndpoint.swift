import APIMessage
import AppInput
import Foundation
import LocalAppStore

/// An App Store Server API endpoint with the values its path carries, as Apple's clients
/// call it (paths below `/inApps`; the sandbox's below `/sandbox/inApps`).
public enum ServerAPIEndpoint: Sendable, Hashable {
    /// GET `/v1/transactions/{transactionId}`
    case transactionInfo(transactionId: String)
    /// GET `/v1/history/{transactionId}` and `/v2/history/{transactionId}`
    case transactionHistory(transactionId: String, version: HistoryQuery.Version)
    /// GET `/v1/subscriptions/{transactionId}`
    case subscriptionStatuses(transactionId: String)
    /// GET `/v1/lookup/{orderId}`
    case lookUpOrder(orderId: String)
    /// GET `/v2/refund/lookup/{transactionId}`
    case refundHistory(transactionId: String)
    /// PUT `/v1/transactions/consumption/{transactionId}` (the deprecated request) and `/v2/…`
    case sendConsumptionInformation(transactionId: String, version: Int)
    /// PUT `/v1/subscriptions/extend/{originalTransactionId}`
    case extendRenewalDate(originalTransactionId: String)
    /// POST `/v1/subscriptions/extend/mass`
    case extendRenewalDatesForAllActiveSubscribers
    /// GET `/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`
    case massExtensionStatus(productId: String, requestIdentifier: String)
    /// GET `/v1/transactions/appTransactions/{transactionId}`
    case appTransactionInfo(transactionId: String)
    /// PUT `/v1/transactions/{originalTransactionId}/appAccountToken`
    case setAppAccountToken(originalTransactionId: String)
    /// POST `/v1/transactions/{transactionId}/finish`
    case finishTransaction(transactionId: String)
    /// POST `/v1/notifications/test`
    case requestTestNotification
    /// GET `/v1/notifications/test/{testNotificationToken}`
    case testNotificationStatus(testNotificationToken: String)
    /// POST `/v1/notifications/history` (`?paginationToken=`)
    case notificationHistory

    /// The endpoint as Apple's documentation titles it, without the values of its path:
    /// what a rate limit counts by.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        case getTransactionInfo = "Get Transaction Info"
        case getTransactionHistoryV1 = "Get Transaction History V1"
        case getTransactionHistory = "Get Transaction History"
        case getAllSubscriptionStatuses = "Get All Subscription Statuses"
        case lookUpOrderId = "Look Up Order ID"
        case getRefundHistory = "Get Refund History"
        case sendConsumptionInformationV1 = "Send Consumption Information V1"
        case sendConsumptionInformation = "Send Consumption Information"
        case extendSubscriptionRenewalDate = "Extend a Subscription Renewal Date"
        case extendRenewalDatesForAllActiveSubscribers = "Extend Subscription Renewal Dates for All Active Subscribers"
        case getStatusOfSubscriptionRenewalDateExtensions = "Get Status of Subscription Renewal Date Extensions"
        case getAppTransactionInfo = "Get App Transaction Info"
        case setAppAccountToken = "Set App Account Token"
        case finishTransaction = "Finish Transaction"
        case requestTestNotification = "Request a Test Notification"
        case getTestNotificationStatus = "Get Test Notification Status"
        case getNotificationHistory = "Get Notification History"
    }

    public var name: Name {
        switch self {
        case .transactionInfo: return .getTransactionInfo
        case .transactionHistory(_, let version): return version == .v1 ? .getTransactionHistoryV1 : .getTransactionHistory
        case .subscriptionStatuses: return .getAllSubscriptionStatuses
        case .lookUpOrder: return .lookUpOrderId
        case .refundHistory: return .getRefundHistory
        case .sendConsumptionInformation(_, let version): return version == 1 ? .sendConsumptionInformationV1 : .sendConsumptionInformation
        case .extendRenewalDate: return .extendSubscriptionRenewalDate
        case .extendRenewalDatesForAllActiveSubscribers: return .extendRenewalDatesForAllActiveSubscribers
        case .massExtensionStatus: return .getStatusOfSubscriptionRenewalDateExtensions
        case .appTransactionInfo: return .getAppTransactionInfo
        case .setAppAccountToken: return .setAppAccountToken
        case .finishTransaction: return .finishTransaction
        case .requestTestNotification: return .requestTestNotification
        case .testNotificationStatus: return .getTestNotificationStatus
        case .notificationHistory: return .getNotificationHistory
        }
    }

    /// Where a path leads: an endpoint, a known path asked with another method, or nothing.
    public enum Route: Sendable, Hashable {
        case endpoint(ServerAPIEndpoint, AppEnvironment)
        case methodNotAllowed(allowed: String)
        case notFound
    }

    /// The path prefix of each environment's base URL.
    public static let prefixes = EnvironmentPrefixes(production: "/inApps/", sandbox: "/sandbox/inApps/")

    /// Whether `path` belongs to the Server API of either environment (the transport's routing question).
    public static func isServerAPIPath(_ path: String) -> Bool {
        prefixes.route(path) != nil
    }

    /// The route of `method` `path` (percent-encoded as received; a query is cut off).
    public static func route(method: String, path: String) -> Route {
        guard let (environment, rest) = prefixes.route(path) else { return .notFound }
        var segments: [String] = []
        for raw in rest.split(separator: "/", omittingEmptySubsequences: false) {
            guard let segment = raw.removingPercentEncoding, !segment.isEmpty else { return .notFound }
            segments.append(segment)
        }
        guard let (endpoint, expected) = match(segments) else { return .notFound }
        guard method == expected else { return .methodNotAllowed(allowed: expected) }
        return .endpoint(endpoint, environment)
    }

    /// The endpoint of `segments` (below `/inApps`) and the method it is called with.
    private static func match(_ segments: [String]) -> (ServerAPIEndpoint, String)? {
        switch segments.count {
        case 3:
            let id = segments[2]
            switch (segments[0], segments[1]) {
            case ("v1", "transactions"): return (.transactionInfo(transactionId: id), "GET")
            case ("v1", "history"): return (.transactionHistory(transactionId: id, version: .v1), "GET")
            case ("v2", "history"): return (.transactionHistory(transactionId: id, version: .v2), "GET")
            case ("v1", "subscriptions"): return (.subscriptionStatuses(transactionId: id), "GET")
            case ("v1", "lookup"): return (.lookUpOrder(orderId: id), "GET")
            case ("v1", "notifications") where id == "test": return (.requestTestNotification, "POST")
            case ("v1", "notifications") where id == "history": return (.notificationHistory, "POST")
            default: return nil
            }
        case 4:
            let last = segments[3]
            switch (segments[0], segments[1], segments[2]) {
            case ("v2", "refund", "lookup"): return (.refundHistory(transactionId: last), "GET")
            case ("v1", "transactions", "consumption"): return (.sendConsumptionInformation(transactionId: last, version: 1), "PUT")
            case ("v2", "transactions", "consumption"): return (.sendConsumptionInformation(transactionId: last, version: 2), "PUT")
            case ("v1", "subscriptions", "extend") where last == "mass": return (.extendRenewalDatesForAllActiveSubscribers, "POST")
            case ("v1", "subscriptions", "extend"): return (.extendRenewalDate(originalTransactionId: last), "PUT")
            case ("v1", "transactions", "appTransactions"): return (.appTransactionInfo(transactionId: last), "GET")
            case ("v1", "transactions", let id) where last == "appAccountToken": return (.setAppAccountToken(originalTransactionId: id), "PUT")
            case ("v1", "transactions", let id) where last == "finish": return (.finishTransaction(transactionId: id), "POST")
            case ("v1", "notifications", "test"): return (.testNotificationStatus(testNotificationToken: last), "GET")
            default: return nil
            }
        case 6 where segments[0...3] == ["v1", "subscriptions", "extend", "mass"]:
            return (.massExtensionStatus(productId: segments[4], requestIdentifier: segments[5]), "GET")
        default:
            return nil
        }
    }
}
