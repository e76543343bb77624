import APIMessage
import LocalAppStore
import StoreAPIAuthentication
import StoreNotifications

/// Why the Server API refused a request: Apple's error (its body and HTTP status go to
/// the client) and, for the log, what exactly was wrong.
public struct ServerAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    public let error: StoreAPIError
    public let detail: String

    public init(_ error: StoreAPIError, _ detail: String) {
        self.error = error
        self.detail = detail
    }

    /// The store's refusal as Apple's error: its own code when the API has one, else
    /// 4000000 (a value the API has no specific code for).
    public init(_ storeError: StoreError) {
        self.init(StoreAPIError(storeError.code) ?? .generalBadRequest, storeError.description)
    }

    /// A notification channel's refusal as Apple's error (exhaustive).
    public init(_ channelError: NotificationChannelError) {
        let error: StoreAPIError
        switch channelError.code {
        case .noNotificationURL: error = .serverNotificationUrlNotFound
        case .notATestNotificationToken: error = .invalidTestNotificationToken
        case .testNotificationNotFound: error = .testNotificationNotFound
        }
        self.init(error, channelError.reason)
    }

    public var description: String { "\(error.rawValue) \(error.name): \(detail)" }

    var response: APIResponse { .error(error) }
}
