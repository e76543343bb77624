/// `summary` of a notification whose subtype is `SUMMARY` (a mass renewal-date
/// extension finished): counts, not transactions.
public struct NotificationSummary: Codable, Hashable, Sendable {
    /// The environment the extension ran in.
    public var environment: String?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The subscription whose renewal dates were extended.
    public var productId: String?
    /// The identifier the developer gave the extension request.
    public var requestIdentifier: String?
    /// The storefronts the extension covered.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many could not be.
    public var failedCount: Int64?

    /// A summary with every field absent, to fill in.
    public init() {}
}
