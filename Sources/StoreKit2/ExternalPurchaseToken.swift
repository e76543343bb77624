/// `externalPurchaseToken` of a notification about a purchase made outside the App Store
/// (`EXTERNAL_PURCHASE_TOKEN`). No environment field: Apple's library takes a token whose
/// `externalPurchaseId` starts with `SANDBOX` as Sandbox, any other as Production.
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    /// The identifier of the token; `SANDBOX…` for sandbox tokens.
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: JWSDate?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?

    /// A token with every field absent, to fill in.
    public init() {}

    /// The environment Apple's library assigns the token.
    public var environment: String {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production"
    }
}
