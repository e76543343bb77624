/// An instant of the store: milliseconds since 1970, as the App Store Server API writes dates.
public typealias StoreInstant = Int64

/// Durations the store's rules are written in, in milliseconds.
public enum StoreDuration {
    public static let second: Int64 = 1_000
    public static let minute: Int64 = 60_000
    public static let hour: Int64 = 3_600_000
    public static let day: Int64 = 86_400_000

    public static func days(_ count: Int) -> Int64 { Int64(count) * day }
}

/// Where a server takes the store's time from. The store itself moves only when told
/// (`StoreState.advance(to:)`); a server that runs at a time rate (SKTestSession's
/// `timeRate`) asks its source for the instant before each request and advances the
/// store to it, so renewals happen in date order whatever the rate.
public protocol StoreClockSource: Sendable {
    /// The store instant the source says it is now; never earlier than a previous answer.
    func currentInstant() -> StoreInstant
}

/// A clock source running `rate` times faster than the wall clock from `start`, after
/// the wall-clock reading `wallStart` (both milliseconds). The reading itself is the
/// caller's (`wallClock`), so tests can drive it.
public struct ScaledClockSource: StoreClockSource {
    public let start: StoreInstant
    public let wallStart: Int64
    public let rate: Double
    private let wallClock: @Sendable () -> Int64

    public init(start: StoreInstant, rate: Double, wallClock: @escaping @Sendable () -> Int64) {
        self.start = start
        self.rate = rate
        self.wallClock = wallClock
        wallStart = wallClock()
    }

    public func currentInstant() -> StoreInstant {
        start + Int64((Double(max(0, wallClock() - wallStart)) * rate).rounded(.down))
    }
}
