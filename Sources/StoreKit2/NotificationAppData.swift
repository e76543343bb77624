/// `appData` of a notification about the app rather than a purchase (Apple's `AppData`,
/// e.g. `RESCIND_CONSENT`): which app, and its signed app transaction.
public struct NotificationAppData: Codable, Hashable, Sendable {
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier: what Apple's verifier compares.
    public var bundleId: String?
    /// The environment: what Apple's verifier compares.
    public var environment: String?
    /// The customer's app transaction, as a JWS.
    public var signedAppTransactionInfo: String?

    /// App data with every field absent, to fill in.
    public init() {}
}
