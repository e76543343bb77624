/// `summary` of a notification whose subtype is `SUMMARY` (a mass renewal-date
/// extension finished): counts, not transactions.
public struct NotificationSummary: Codable, Hashable, Sendable {
    public var environment: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var productId: String?
    public var requestIdentifier: String?
    public var storefrontCountryCodes: [String]?
    public var succeededCount: Int64?
    public var failedCount: Int64?

    public init() {}
}
