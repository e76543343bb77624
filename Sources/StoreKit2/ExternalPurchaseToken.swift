/// `externalPurchaseToken` of a notification about a purchase made outside the App Store
/// (`EXTERNAL_PURCHASE_TOKEN`). No environment field: Apple's library takes a token whose
/// `externalPurchaseId` starts with `SANDBOX` as Sandbox, any other as Production.
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    public var externalPurchaseId: String?
    public var tokenCreationDate: JWSDate?
    public var appAppleId: Int64?
    public var bundleId: String?

    public init() {}

    /// The environment Apple's library assigns the token.
    public var environment: String {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production"
    }
}
