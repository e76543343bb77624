import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withUnsafePointer(to: value) { _ = $0 }
}

/// Time per call of `body`, in nanoseconds: the best of `rounds` rounds, each long
/// enough (~`roundNanoseconds`) to swamp the clock's resolution. The best round is
/// the least disturbed by the other core's load; both sides of every ratio are
/// measured the same way in the same run.
func nanosecondsPerCall(
    rounds: Int = 7,
    roundNanoseconds: UInt64 = 40_000_000,
    _ body: () -> Void
) -> Double {
    // Calibrate: how many calls fill one round.
    var calls = 1
    while true {
        let start = monotonicNanoseconds()
        for _ in 0..<calls { body() }
        let elapsed = monotonicNanoseconds() - start
        if elapsed >= roundNanoseconds / 4 || calls >= 1 << 30 {
            calls = max(1, Int(Double(calls) * Double(roundNanoseconds) / Double(max(elapsed, 1))))
            break
        }
        calls *= 4
    }
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = monotonicNanoseconds()
        for _ in 0..<calls { body() }
        let elapsed = monotonicNanoseconds() - start
        best = min(best, Double(elapsed) / Double(calls))
    }
    return best
}

/// Formats a duration given in nanoseconds with a sensible unit.
func formatDuration(_ nanoseconds: Double) -> String {
    if nanoseconds < 1_000 { return String(format: "%.1f ns", nanoseconds) }
    if nanoseconds < 1_000_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
    return String(format: "%.2f ms", nanoseconds / 1_000_000)
}

/// Left-pads or right-pads `text` to `width` columns for table output.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}
