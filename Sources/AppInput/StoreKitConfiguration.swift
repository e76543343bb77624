import StrictJSON
/// An Xcode StoreKit configuration file (`.storekit`): the products an app sells, as
/// Xcode's StoreKit testing declares them. Xcode 12 to 16 write format versions 1.x
/// to 4.0; all share the parts read here:
///
/// - `products[]`: `productID`, `type` `Consumable` or `NonConsumable`;
/// - `nonRenewingSubscriptions[]`: `productID`, `type` `NonRenewingSubscription`;
/// - `subscriptionGroups[]` (`id`) with `subscriptions[]`: `productID`, `type`
///   `RecurringSubscription`, `recurringSubscriptionPeriod` (`P1W`, `P1M` …),
///   `introductoryOffer` (null, or `paymentMode` `free` / `payAsYouGo` / `payUpFront`,
///   `subscriptionPeriod`, `numberOfPeriods`) and `subscriptionGroupID`.
///
/// Everything else (prices, localizations, offer codes, `settings`, fields later
/// Xcode versions add) is ignored; what is read is checked strictly, and a refusal
/// names the file and the JSONPath of the value.
///
/// ```swift
/// let catalogue = try StoreKitConfiguration(contentsOfFile: "Shop.storekit").catalogue
/// ```
public struct StoreKitConfiguration: Sendable, Hashable {
    /// The file's `version` (`{"major": 4, "minor": 0}`), when it has one.
    public struct FormatVersion: Sendable, Hashable, CustomStringConvertible {
        public var major: Int
        public var minor: Int

        public init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }

        public var description: String { "\(major).\(minor)" }
    }

    public var version: FormatVersion?
    /// Every product, in file order: `products`, then `nonRenewingSubscriptions`, then
    /// each group's `subscriptions`.
    public var catalogue: ProductCatalogue

    public init(version: FormatVersion?, catalogue: ProductCatalogue) {
        self.version = version
        self.catalogue = catalogue
    }

    /// Reads and parses the file at `path`.
    public init(contentsOfFile path: String) throws(JSONInputError) {
        try self.init(document: JSONInput.load(contentsOfFile: path))
    }

    /// Parses the contents of a `.storekit` file; `file` names it in errors.
    public init(json bytes: [UInt8], file: String) throws(JSONInputError) {
        try self.init(document: JSONInput.parse(bytes, file: file))
    }

    package init(document: JSONInput) throws(JSONInputError) {
        let root = try document.object(knownKeys: nil)
        let sections = ["products", "nonRenewingSubscriptions", "subscriptionGroups"]
        guard sections.contains(where: root.contains) else {
            throw document.failure("not a StoreKit configuration: it has none of the fields \(sections.joined(separator: ", "))")
        }
        version = try root.optionalNonNull("version").map(StoreKitConfiguration.formatVersion)

        var reader = CatalogueReader()
        for entry in try root.optionalNonNull("products")?.array() ?? [] {
            try reader.add(entry, allowed: [.consumable, .nonConsumable], group: nil)
        }
        for entry in try root.optionalNonNull("nonRenewingSubscriptions")?.array() ?? [] {
            try reader.add(entry, allowed: [.nonRenewingSubscription], group: nil)
        }
        for groupEntry in try root.optionalNonNull("subscriptionGroups")?.array() ?? [] {
            let group = try groupEntry.object(knownKeys: nil)
            let groupID = try group.optionalNonNull("id")?.name()
            for entry in try group.optionalNonNull("subscriptions")?.array() ?? [] {
                try reader.add(entry, allowed: [.recurringSubscription], group: groupID)
            }
        }
        catalogue = ProductCatalogue(products: reader.products)
    }

    private static func formatVersion(_ input: JSONInput) throws(JSONInputError) -> FormatVersion {
        let version = try input.object(knownKeys: nil)
        return FormatVersion(major: try version.required("major").integer(in: 1...Int.max),
                             minor: try version.optionalNonNull("minor")?.integer(in: 0...Int.max) ?? 0)
    }
}

/// The `type` values of a `.storekit` product and the sections they belong in.
private enum StoreKitProductType: String, CaseIterable {
    case consumable = "Consumable"
    case nonConsumable = "NonConsumable"
    case nonRenewingSubscription = "NonRenewingSubscription"
    case recurringSubscription = "RecurringSubscription"

    package var kind: Product.Kind {
        switch self {
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .nonRenewingSubscription: return .nonRenewingSubscription
        case .recurringSubscription: return .autoRenewableSubscription
        }
    }

    package var section: String {
        switch self {
        case .consumable, .nonConsumable: return "products"
        case .nonRenewingSubscription: return "nonRenewingSubscriptions"
        case .recurringSubscription: return "subscriptionGroups[].subscriptions"
        }
    }
}

/// Collects products in file order and refuses a product id declared twice.
private struct CatalogueReader {
    package var products: [Product] = []
    private var firstDeclared: [String: String] = [:]

    package mutating func add(_ entry: JSONInput, allowed: Set<StoreKitProductType>, group groupID: String?) throws(JSONInputError) {
        let object = try entry.object(knownKeys: nil)
        let idInput = try object.required("productID")
        let id = try idInput.name()
        let kind = try productType(object.required("type"), allowed: allowed).kind

        var product = Product(id: id, kind: kind)
        if kind == .autoRenewableSubscription {
            product.period = try period(object.required("recurringSubscriptionPeriod"))
            product.introductoryOffer = try introductoryOffer(in: object)
            product.groupID = try subscriptionGroupID(in: object, groupID: groupID)
        }
        if let first = firstDeclared[id] {
            throw idInput.failure("product id '\(id)' is declared twice (first at \(first))")
        }
        firstDeclared[id] = idInput.path.description
        products.append(product)
    }

    private func productType(_ input: JSONInput, allowed: Set<StoreKitProductType>) throws(JSONInputError) -> StoreKitProductType {
        let type = try input.choice(StoreKitProductType.allCases.map { ($0.rawValue, $0) }, naming: "product type")
        guard allowed.contains(type) else {
            throw input.failure("a \(type.rawValue) product belongs in \(type.section), not here")
        }
        return type
    }

    private func period(_ input: JSONInput) throws(JSONInputError) -> SubscriptionPeriod {
        let text = try input.string()
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw input.failure("'\(text)' is not a subscription period (expected an ISO 8601 duration such as P3D, P1W, P1M, P6M or P1Y)")
        }
        return period
    }

    /// `introductoryOffer` (an object or null). Files seen from the newest Xcode write
    /// an `introductoryOffers` array instead; its first element is then the offer.
    private func introductoryOffer(in subscription: JSONObject) throws(JSONInputError) -> IntroductoryOffer? {
        let offerInput: JSONInput
        if let single = subscription.optionalNonNull("introductoryOffer") {
            offerInput = single
        } else if let first = try subscription.optionalNonNull("introductoryOffers")?.array().first {
            offerInput = first
        } else {
            return nil
        }
        let offer = try offerInput.object(knownKeys: nil)
        let mode = try offer.required("paymentMode")
            .choice(IntroductoryOffer.PaymentMode.allCases.map { ($0.rawValue, $0) }, naming: "payment mode")
        return IntroductoryOffer(paymentMode: mode, period: try period(offer.required("subscriptionPeriod")),
                                 periodCount: try offer.optionalNonNull("numberOfPeriods")?.integer(in: 1...999) ?? 1)
    }

    /// The subscription's `subscriptionGroupID`, which must agree with its group's `id`
    /// when both are given.
    private func subscriptionGroupID(in subscription: JSONObject, groupID: String?) throws(JSONInputError) -> String? {
        guard let input = subscription.optionalNonNull("subscriptionGroupID") else { return groupID }
        let own = try input.name()
        if let groupID, own != groupID {
            throw input.failure("subscriptionGroupID '\(own)' differs from the id '\(groupID)' of the group that lists it")
        }
        return own
    }
}
