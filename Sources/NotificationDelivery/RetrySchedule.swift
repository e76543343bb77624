import AppInput
import LocalAppStore

/// When the App Store sends a notification again after a failed attempt. Production
/// retries five times, 1, 12, 24, 48 and 72 hours after the previous attempt (six
/// attempts in all), keeping the notification's `notificationUUID`; sandbox sends once
/// (Apple, "Responding to App Store Server Notifications"; APPSTORESERVERAPI.md).
/// Delays are store time.
public struct RetrySchedule: Sendable, Hashable {
    /// The delay before each retry, after the attempt before it.
    public let delays: [Int64]

    public init(delays: [Int64]) {
        self.delays = delays
    }

    public static let production = RetrySchedule(delays: [1, 12, 24, 48, 72].map { $0 * StoreDuration.hour })
    public static let sandbox = RetrySchedule(delays: [])

    public static func of(_ environment: AppEnvironment) -> RetrySchedule {
        environment == .production ? .production : .sandbox
    }

    /// When the attempt after attempt number `attempt` (1 for the first) is due, if any.
    public func nextAttempt(after attempt: Int, at date: StoreInstant) -> StoreInstant? {
        attempt >= 1 && attempt <= delays.count ? date + delays[attempt - 1] : nil
    }
}
