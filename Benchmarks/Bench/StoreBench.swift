import Foundation
import LocalAppStore

/// `scripts/bench store-load [--customers N]`: builds the local App Store's default
/// population (100 000 customers unless told) and prints the wall time it took and
/// the process's peak resident memory (VmHWM). The goal: under 10 s and 1 GiB.
func runStoreLoadBench(_ arguments: [String]) {
    var customers = 100_000
    if let index = arguments.firstIndex(of: "--customers"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
        customers = count
    }
    let before = peakResidentMiB()
    let start = monotonicNanoseconds()
    let store = LocalAppStore(StoreConfiguration(customers: customers))
    let elapsed = Double(monotonicNanoseconds() - start) / 1e9
    let state = store.snapshot()
    print("store-load: \(customers) customers, \(state.transactions.count) transactions, \(state.subscriptions.count) subscriptions")
    print(String(format: "  time %.2f s (goal < 10 s)", elapsed))
    print("  peak RSS \(before) before, \(peakResidentMiB()) after (goal < 1024 MiB)")
}

/// VmHWM (peak resident set) of this process, in MiB.
private func peakResidentMiB() -> String {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return "?" }
    return String(format: "%.1f MiB", kilobytes / 1024)
}
