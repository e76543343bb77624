import AppInput

/// A product as the store sells it: the app description's `Product`, its price in
/// milli-units of the storefront's currency, and its place in its subscription group.
public struct StoreProduct: Sendable, Hashable {
    /// The product as the app describes it: id, kind, period, offers.
    public let product: Product
    /// Milli-units (`price` of a transaction): 4990 is 4.99.
    public let price: Int64
    /// The index of its group in `StoreState.groups` (auto-renewable subscriptions).
    package let group: Int32?
    /// The level of service within the group: 1 is the highest, as Xcode's `groupNumber`.
    public let level: Int

    /// The product id.
    public var id: String { product.id }
    /// Consumable, non-consumable, non-renewing or auto-renewable subscription.
    public var kind: Product.Kind { product.kind }

    /// One period, in milliseconds (auto-renewable subscriptions; a month when the
    /// catalogue gives none, as the receipt forge assumes).
    public var periodLength: Int64 {
        (product.period ?? SubscriptionPeriod.oneMonth).seconds * 1_000
    }

    /// A fixed price list by kind and period, so every store of the same app agrees.
    static func price(of product: Product) -> Int64 {
        switch product.kind {
        case .consumable: return 990
        case .nonConsumable: return 4_990
        case .nonRenewingSubscription: return 2_990
        case .autoRenewableSubscription:
            let days = (product.period ?? SubscriptionPeriod.oneMonth).seconds / 86_400
            switch days {
            case ..<8: return 1_990
            case ..<31: return 4_990
            case ..<100: return 12_990
            default: return 39_990
            }
        }
    }

    /// The products of `app`: its catalogue, the example catalogue for the built-in
    /// history, or, for an explicit purchase list, one product per id it names (each
    /// auto-renewable one a group of its own, a month long).
    static func catalogue(of app: AppDescription) -> (products: [StoreProduct], groups: [String]) {
        let source: [Product]
        switch app.purchases {
        case .builtIn: source = ProductCatalogue.example.products
        case .catalogue(let catalogue): source = catalogue.products
        case .explicit(let list):
            var seen = Set<String>()
            source = list.compactMap { purchase in
                guard seen.insert(purchase.productID).inserted else { return nil }
                return Product(id: purchase.productID, kind: purchase.kind,
                               groupID: purchase.kind == .autoRenewableSubscription ? purchase.productID : nil)
            }
        }
        var groups: [String] = []
        var levels: [String: Int] = [:]
        let products = source.map { product -> StoreProduct in
            var group: Int32?
            var level = 0
            if product.kind == .autoRenewableSubscription {
                let groupID = product.groupID ?? product.id
                if let index = groups.firstIndex(of: groupID) {
                    group = Int32(index)
                } else {
                    group = Int32(groups.count)
                    groups.append(groupID)
                }
                level = (levels[groupID] ?? 0) + 1
                levels[groupID] = level
            }
            return StoreProduct(product: product, price: price(of: product), group: group, level: level)
        }
        return (products, groups)
    }
}
