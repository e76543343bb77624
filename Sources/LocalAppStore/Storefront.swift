/// The storefronts the store's customers buy in: Apple's three-letter country code,
/// its storefront id and currency.
public enum Storefront: String, Sendable, Hashable, Codable, CaseIterable {
    case usa = "USA"
    case can = "CAN"
    case gbr = "GBR"
    case deu = "DEU"
    case jpn = "JPN"

    public var countryCode: String { rawValue }

    public var storefrontId: String {
        switch self {
        case .usa: return "143441"
        case .can: return "143455"
        case .gbr: return "143444"
        case .deu: return "143443"
        case .jpn: return "143462"
        }
    }

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
