import Foundation

/// A wall clock in milliseconds that a test moves by hand: what a clock source reads
/// instead of the real time, so a test drives time without sleeping.
public final class TestWallClock: @unchecked Sendable {
    // @unchecked: `milliseconds` is only touched under `lock`.
    private let lock = NSLock()
    private var milliseconds: Int64

    public init(_ milliseconds: Int64 = 1_000_000) { self.milliseconds = milliseconds }

    public func move(by step: Int64) { lock.withLock { milliseconds += step } }

    /// The reading, as `ScaledClockSource` takes it.
    public var read: @Sendable () -> Int64 { { [self] in lock.withLock { milliseconds } } }
}
