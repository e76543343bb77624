import Foundation

/// An instant of the store: milliseconds since 1970, as the App Store Server API writes dates.
public typealias StoreInstant = Int64

/// Durations the store's rules are written in, in milliseconds.
public enum StoreDuration {
    /// One second.
    public static let second: Int64 = 1_000
    /// One minute.
    public static let minute: Int64 = 60_000
    /// One hour.
    public static let hour: Int64 = 3_600_000
    /// One day.
    public static let day: Int64 = 86_400_000

    /// `count` days.
    public static func days(_ count: Int) -> Int64 { Int64(count) * day }
}

/// Where a store takes the passing of time from, when it runs at a time rate
/// (SKTestSession's `timeRate`, `forge serve --time-rate`). The store itself moves only
/// when told (`StoreState.advance(to:)`); a `LocalAppStore` given a source reads it
/// before each access and advances its clock by as much as the source moved since the
/// previous reading, so renewals happen in date order whatever the rate, and an
/// `advanceClock` on top stays as an offset.
public protocol StoreClockSource: Sendable {
    /// The store instant the source says it is now; never earlier than a previous answer.
    func currentInstant() -> StoreInstant
}

/// A clock source running `rate` times faster than the wall clock from `start`, after
/// the wall-clock reading `wallStart` (both milliseconds). The reading itself is the
/// caller's (`wallClock`), so tests can drive it. Rounded down from `wallStart` each
/// time, so the steps between readings add up to the scaled time with no drift.
public struct ScaledClockSource: StoreClockSource {
    /// The store instant at the first reading.
    public let start: StoreInstant
    /// The wall-clock reading taken at creation.
    public let wallStart: Int64
    /// How many store milliseconds pass per wall-clock millisecond.
    public let rate: Double
    private let wallClock: @Sendable () -> Int64

    /// The system's wall clock in milliseconds since 1970, rounded down.
    public static let systemWallClock: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)) }

    /// A source starting at `start`, reading `wallClock` once now as its origin.
    public init(start: StoreInstant, rate: Double, wallClock: @escaping @Sendable () -> Int64 = ScaledClockSource.systemWallClock) {
        self.start = start
        self.rate = rate
        self.wallClock = wallClock
        wallStart = wallClock()
    }

    /// `start` plus the wall-clock time since creation times `rate`, rounded down.
    public func currentInstant() -> StoreInstant {
        start + Int64((Double(max(0, wallClock() - wallStart)) * rate).rounded(.down))
    }

    /// The wall-clock milliseconds from now until the source reads `instant` (0 when it
    /// already does): how long to sleep before something due then is due.
    public func wallMilliseconds(until instant: StoreInstant) -> Int64 {
        let needed = (Double(instant - start) / rate).rounded(.up)
        let waited = Double(max(0, wallClock() - wallStart))
        return needed > waited ? Int64(needed - waited) : 0
    }
}
