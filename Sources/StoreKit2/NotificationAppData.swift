/// `appData` of a notification about the app rather than a purchase (Apple's `AppData`,
/// e.g. `RESCIND_CONSENT`): which app, and its signed app transaction.
public struct NotificationAppData: Codable, Hashable, Sendable {
    public var appAppleId: Int64?
    public var bundleId: String?
    public var environment: String?
    public var signedAppTransactionInfo: String?

    public init() {}
}
