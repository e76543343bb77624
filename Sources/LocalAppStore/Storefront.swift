/// The storefronts the store's customers buy in: Apple's three-letter country code,
/// its storefront id and currency.
public enum Storefront: String, Sendable, Hashable, Codable, CaseIterable {
    /// The United States.
    case usa = "USA"
    /// Canada.
    case can = "CAN"
    /// The United Kingdom.
    case gbr = "GBR"
    /// Germany.
    case deu = "DEU"
    /// Japan.
    case jpn = "JPN"

    /// The ISO 3166-1 alpha-3 code, as `storefront` in transactions.
    public var countryCode: String { rawValue }

    /// The App Store's storefront id, as `storefrontId` in transactions.
    public var storefrontId: String {
        switch self {
        case .usa: return "143441"
        case .can: return "143455"
        case .gbr: return "143444"
        case .deu: return "143443"
        case .jpn: return "143462"
        }
    }

    /// The storefront's ISO 4217 currency.
    public var currency: String {
        switch self {
        case .usa: return "USD"
        case .can: return "CAD"
        case .gbr: return "GBP"
        case .deu: return "EUR"
        case .jpn: return "JPY"
        }
    }
}
