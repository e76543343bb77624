/// A product of the app's catalogue, as an Xcode StoreKit configuration declares it.
public struct Product: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case consumable
        case nonConsumable
        case nonRenewingSubscription
        case autoRenewableSubscription

        /// Attribute 1707 (undocumented): 0 non-consumable, 1 consumable, 2 non-renewing, 3 auto-renewable.
        public var receiptValue: Int64 {
            switch self {
            case .nonConsumable: return 0
            case .consumable: return 1
            case .nonRenewingSubscription: return 2
            case .autoRenewableSubscription: return 3
            }
        }
    }

    public var id: String
    public var kind: Kind
    /// How long one period lasts (auto-renewable subscriptions).
    public var period: SubscriptionPeriod?
    public var introductoryOffer: IntroductoryOffer?
    /// The subscription group (auto-renewable subscriptions).
    public var groupID: String?

    public init(id: String, kind: Kind, period: SubscriptionPeriod? = nil, introductoryOffer: IntroductoryOffer? = nil,
                groupID: String? = nil) {
        self.id = id
        self.kind = kind
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.groupID = groupID
    }
}

/// An ISO 8601 duration of whole days, weeks, months or years: `P3D`, `P1W`, `P1M`, `P6M`, `P1Y`.
///
/// The count is 1 to 999 (what App Store Connect and a `.storekit` file allow): a period of
/// no length would renew a subscription for ever at one instant, so none can be made.
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: Character, Sendable, Hashable {
        case day = "D", week = "W", month = "M", year = "Y"
    }

    /// The counts a period may have.
    public static let counts: ClosedRange<Int> = 1...999
    /// One month: what the store assumes for a subscription whose product declares no period.
    public static let oneMonth = SubscriptionPeriod(checkedCount: 1, unit: .month)

    public private(set) var count: Int
    public private(set) var unit: Unit

    /// Throws `SubscriptionPeriodError.countOutOfRange` unless `count` is in ``counts``.
    public init(count: Int, unit: Unit) throws(SubscriptionPeriodError) {
        guard Self.counts.contains(count) else {
            throw .countOutOfRange(count: count, unit: unit)
        }
        self.init(checkedCount: count, unit: unit)
    }

    /// For counts this module writes itself, in ``counts``.
    init(checkedCount count: Int, unit: Unit) {
        assert(Self.counts.contains(count))
        self.count = count
        self.unit = unit
    }

    /// `P<n><D|W|M|Y>` with 1 ≤ n ≤ 999; nil for anything else.
    public init?(iso8601 text: String) {
        guard text.count >= 3, text.first == "P", let unit = text.last.flatMap(Unit.init(rawValue:)),
              let count = Int(text.dropFirst().dropLast()), Self.counts.contains(count),
              text.dropFirst().dropLast().allSatisfy(\.isASCII) else { return nil }
        self.init(checkedCount: count, unit: unit)
    }

    public var description: String { "P\(count)\(unit.rawValue)" }

    /// The approximate length in seconds (months of 30 days, years of 365): receipts
    /// only need renewals that follow each other.
    public var seconds: Int64 {
        let day: Int64 = 86_400
        switch unit {
        case .day: return Int64(count) * day
        case .week: return Int64(count) * 7 * day
        case .month: return Int64(count) * 30 * day
        case .year: return Int64(count) * 365 * day
        }
    }
}

/// Why a ``SubscriptionPeriod`` cannot be made.
public enum SubscriptionPeriodError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The count is outside ``SubscriptionPeriod/counts``.
    case countOutOfRange(count: Int, unit: SubscriptionPeriod.Unit)

    public var description: String {
        switch self {
        case .countOutOfRange(let count, let unit):
            return "a subscription period of \(count) \(unit) is outside 1...999 (P\(count)\(unit.rawValue))"
        }
    }
}

/// An introductory offer: a free trial (attribute 1713 set) or a discounted first
/// period (attribute 1719 set).
public struct IntroductoryOffer: Sendable, Hashable {
    public enum PaymentMode: String, Sendable, Hashable, CaseIterable {
        /// A free trial.
        case free
        case payAsYouGo
        case payUpFront
    }

    public var paymentMode: PaymentMode
    public var period: SubscriptionPeriod
    /// How many periods the offer lasts (pay as you go); 1 otherwise.
    public var periodCount: Int

    public init(paymentMode: PaymentMode, period: SubscriptionPeriod, periodCount: Int = 1) {
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
    }
}

/// The products an app sells.
public struct ProductCatalogue: Sendable, Hashable {
    public var products: [Product]

    public init(products: [Product]) {
        self.products = products
    }
}
