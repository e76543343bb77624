import Foundation
import ReceiptForge

/// `scripts/bench check`: the per-case overhead of `forge check` beyond the
/// validator's own run. The validator is `/bin/true` (an empty answer, exit 0); the
/// reference is the same `/bin/true` started once per case by `posix_spawn` in this
/// process, in the same run. Overhead per case = (forge check's wall time − forge's
/// own start-up, measured as `forge check --case valid`) / cases − one bare spawn.
func runCheckBench(_ arguments: [String]) {
    let forgePath = benchForgeExecutable(arguments.first)
    let tree = FileManager.default.temporaryDirectory.appendingPathComponent("forge-bench-check-\(getpid())")
    defer { try? FileManager.default.removeItem(at: tree) }
    do {
        try Forge().write(to: tree)
    } catch {
        print("minting failed: \(error)")
        exit(70)
    }
    let cases = ForgeCase.catalogue.count

    func wall(_ arguments: [String]) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: forgePath)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = monotonicNanoseconds()
        try! process.run()
        process.waitUntilExit()
        return Double(monotonicNanoseconds() - start)
    }
    func bareSpawns(_ count: Int) -> Double {
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            var pid: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
            posix_spawn(&pid, "/bin/true", nil, nil, argv, environ)
            free(argv[0])
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        return Double(monotonicNanoseconds() - start)
    }

    let common = ["check", "--fixtures", tree.path, "--quiet"]
    for jobs in [1, 2] {
        var best = (all: Double.infinity, one: Double.infinity, spawns: Double.infinity)
        for _ in 0..<5 {
            best.all = min(best.all, wall(common + ["--jobs", "\(jobs)", "--", "/bin/true"]))
            best.one = min(best.one, wall(common + ["--case", "valid", "--", "/bin/true"]))
            best.spawns = min(best.spawns, bareSpawns(cases))
        }
        let perCase = (best.all - best.one) / Double(cases - 1)
        let spawn = best.spawns / Double(cases)
        let overhead = (perCase - spawn / Double(jobs))
        print("forge check --jobs \(jobs), \(cases) cases, /bin/true as the validator (best of 5):")
        print("  whole run \(formatDuration(best.all)); one case \(formatDuration(best.one)) (forge start-up, tree loading)")
        print("  per case \(formatDuration(perCase)); a bare posix_spawn + wait of /bin/true \(formatDuration(spawn))")
        print("  overhead per case beyond the validator's own run: \(formatDuration(overhead)) (goal < 5 ms)")
    }
}
