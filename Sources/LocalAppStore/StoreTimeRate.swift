/// How fast the store clock runs against the wall clock (`forge serve --time-rate`),
/// after Xcode's `SKTestSession.TimeRate`: one of its names, or a plain factor (`60`:
/// a minute of store time per real second).
///
/// The store has one clock for every subscription, so each name is a factor. Apple's
/// `monthlyRenewalEvery…` rates scale a 30-day month to their interval (Xcode's own
/// table shortens weekly and yearly periods a little differently); the fixed
/// `oneRenewalEvery…` rates, which in Xcode renew every subscription at that interval
/// whatever its period, are read here as a monthly renewal at that interval (a weekly
/// one renews sooner, a yearly one later). Grace and billing retry periods scale with it.
public struct StoreTimeRate: Sendable, Hashable, CustomStringConvertible {
    /// Store milliseconds per wall-clock millisecond.
    public let factor: Double
    /// The name it was given by, or nil for a plain factor.
    public let name: String?

    /// The largest factor: ten times `oneRenewalEveryTwoSeconds`, beyond which an hour's
    /// run would move the clock by millennia.
    public static let maximumFactor = 13_000_000.0

    private static let month = 30.0 * 86_400

    /// `SKTestSession.TimeRate`'s names (StoreKit Test documentation), with their factors.
    public static let named: [(name: String, factor: Double)] = [
        ("realTime", 1),
        ("oneSecondIsOneHour", 3_600),
        ("oneSecondIsOneDay", 86_400),
        ("monthlyRenewalEveryHour", month / 3_600),
        ("monthlyRenewalEveryThirtyMinutes", month / 1_800),
        ("monthlyRenewalEveryFiveMinutes", month / 300),
        ("monthlyRenewalEveryThirtySeconds", month / 30),
        ("oneRenewalEveryFifteenMinutes", month / 900),
        ("oneRenewalEveryFiveMinutes", month / 300),
        ("oneRenewalEveryMinute", month / 60),
        ("oneRenewalEveryThirtySeconds", month / 30),
        ("oneRenewalEveryTenSeconds", month / 10),
        ("oneRenewalEveryTwoSeconds", month / 2),
    ]

    /// A rate of `factor` store milliseconds per wall-clock millisecond; precondition: above 0 and at most `maximumFactor`.
    public init(factor: Double) {
        precondition(factor > 0 && factor <= Self.maximumFactor, "a time rate between 0 and \(Self.maximumFactor)")
        self.factor = factor
        name = nil
    }

    /// A name of `named`, or a decimal factor above 0 and at most `maximumFactor`; nil otherwise.
    public init?(_ text: String) {
        if let entry = Self.named.first(where: { $0.name == text }) {
            factor = entry.factor
            name = entry.name
            return
        }
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }),
              let factor = Double(text), factor > 0, factor <= Self.maximumFactor else { return nil }
        self.factor = factor
        name = nil
    }

    /// The rate's name when it has one, else its factor.
    public var description: String { name ?? "\(factor)" }

    /// The accepted spellings, for help and errors.
    public static var spellings: String {
        named.map(\.name).joined(separator: ", ") + ", or a factor above 0 and at most \(Int(maximumFactor))"
    }
}
