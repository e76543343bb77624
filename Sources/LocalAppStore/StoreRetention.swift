import AppInput

/// How long the store, and the notification record built on it, keep what only history
/// shows. A server running at a time rate makes events and notifications with no
/// request at all; kept for ever they would grow its memory without bound. Apple's own
/// windows are the rule: what is older than Apple would answer about is dropped.
public enum StoreRetention {
    /// How far back Get Notification History reaches, and so how long a notification's
    /// record (once no attempt is pending), the store event it came from and a completed
    /// mass extension are kept. Apple's Get Notification History page: "Notification
    /// history is available for the past 180 days in the production environment, and the
    /// past 30 days in the sandbox environment"
    /// (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history).
    /// Apple documents no period for the status of a mass extension (Get Status of
    /// Subscription Renewal Date Extensions); the store keeps it as long as the
    /// notifications that report it (RENEWAL_EXTENSION, SUMMARY).
    public static func notificationHistory(in environment: AppEnvironment) -> Int64 {
        switch environment {
        case .production: return StoreDuration.days(180)
        case .sandbox: return StoreDuration.days(30)
        }
    }

    /// How long a TEST notification's status is kept, in both environments. Apple's Get
    /// Test Notification Status page: "You can check the status using the
    /// testNotificationToken for up to six months"
    /// (https://developer.apple.com/documentation/appstoreserverapi/get-test-notification-status);
    /// six months of 31 days, so that the store never forgets one Apple would still answer.
    public static let testNotificationStatus: Int64 = StoreDuration.days(6 * 31)

    /// How long a notification's record is kept after it was made: a TEST notification's
    /// as long as its status is available, any other's as long as history lists it.
    public static func window(testNotification: Bool, in environment: AppEnvironment) -> Int64 {
        testNotification ? testNotificationStatus : notificationHistory(in: environment)
    }
}
