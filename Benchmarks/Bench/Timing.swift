import Foundation
import OpenSSLShim
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

/// CPU time of the calling thread, in nanoseconds: unlike wall time it does not count
/// the time other processes on this shared machine take the core away, so in-process
/// figures (`nanosecondsPerCall`) hold better under load. Subprocess timings keep
/// `monotonicNanoseconds`.
@inline(__always)
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withUnsafePointer(to: value) { _ = $0 }
}

/// Time per call of `body`, in nanoseconds: the best of `rounds` rounds, each long
/// enough (~`roundNanoseconds` of this thread's CPU time) to swamp the clock's
/// resolution. The best round is the least disturbed by the other core's load; both sides of every ratio are
/// measured the same way in the same run.
func nanosecondsPerCall(
    rounds: Int = 7,
    roundNanoseconds: UInt64 = 40_000_000,
    _ body: () -> Void
) -> Double {
    if let counting = InstructionCounting.shared { return counting.instructionsPerCall(body) }
    // Calibrate: how many calls fill one round.
    var calls = 1
    while true {
        let start = threadCPUNanoseconds()
        for _ in 0..<calls { body() }
        let elapsed = threadCPUNanoseconds() - start
        if elapsed >= roundNanoseconds / 4 || calls >= 1 << 30 {
            calls = max(1, Int(Double(calls) * Double(roundNanoseconds) / Double(max(elapsed, 1))))
            break
        }
        calls *= 4
    }
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = threadCPUNanoseconds()
        for _ in 0..<calls { body() }
        let elapsed = threadCPUNanoseconds() - start
        best = min(best, Double(elapsed) / Double(calls))
    }
    return best
}

/// Formats a duration given in nanoseconds with a sensible unit (under
/// `--instructions`, an instruction count).
func formatDuration(_ nanoseconds: Double) -> String {
    if InstructionCounting.shared != nil {
        if nanoseconds < 10_000 { return String(format: "%.0f Ir", nanoseconds) }
        if nanoseconds < 10_000_000 { return String(format: "%.1fk Ir", nanoseconds / 1_000) }
        return String(format: "%.2fM Ir", nanoseconds / 1_000_000)
    }
    if nanoseconds < 1_000 { return String(format: "%.1f ns", nanoseconds) }
    if nanoseconds < 1_000_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
    return String(format: "%.2f ms", nanoseconds / 1_000_000)
}

/// Left-pads or right-pads `text` to `width` columns for table output.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

/// `scripts/bench --instructions SUITE`: the Bench runs under callgrind, and every
/// `nanosecondsPerCall` returns instructions per call instead of time — one warm-up
/// call, counters zeroed, a fixed number of calls, counters dumped and read back —
/// so each suite prints its usual table with instruction counts and ratios, which
/// do not move with machine load. Set up by scripts/bench through the environment:
/// RF_BENCH_CALLGRIND_OUT (callgrind's --callgrind-out-file) and RF_BENCH_CALLS.
final class InstructionCounting: @unchecked Sendable {
    static let shared: InstructionCounting? = {
        guard let out = ProcessInfo.processInfo.environment["RF_BENCH_CALLGRIND_OUT"] else { return nil }
        guard rf_callgrind_active() == 1 else {
            FileHandle.standardError.write(Data("RF_BENCH_CALLGRIND_OUT is set but this is not running under callgrind (or was built without valgrind's headers)\n".utf8))
            exit(70)
        }
        let calls = ProcessInfo.processInfo.environment["RF_BENCH_CALLS"].flatMap { Int($0) } ?? 5
        return InstructionCounting(out: out, calls: max(1, calls))
    }()

    private let out: String, calls: Int
    private let lock = NSLock()
    private var dumps = 0

    private init(out: String, calls: Int) {
        self.out = out
        self.calls = calls
    }

    func instructionsPerCall(_ body: () -> Void) -> Double {
        lock.lock()
        defer { lock.unlock() }
        body()  // warm-up: lazy initialization and caches, as the timed rounds see them
        rf_callgrind_zero()
        for _ in 0..<calls { body() }
        rf_callgrind_dump()
        dumps += 1
        let path = "\(out).\(dumps)"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
              let count = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else {
            FileHandle.standardError.write(Data("cannot read callgrind's dump \(path)\n".utf8))
            exit(70)
        }
        return count / Double(calls)
    }
}
