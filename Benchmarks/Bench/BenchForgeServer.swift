import Foundation

/// A `forge serve` process for a benchmark: the release `forge` beside this benchmark,
/// started with the suite's arguments (`--port 0`, so the kernel picks a free port), its
/// base URL read from the banner it prints. `wrk` found on the way, as each server
/// suite drives it. Exits with a clear message when something is missing.
struct BenchForgeServer {
    let process: Process
    /// `http://127.0.0.1:PORT`.
    let base: String
    /// `https://127.0.0.1:PORT` when the arguments asked for `--tls-port`.
    let tlsBase: String?
    /// The wrk executable.
    let wrk: String

    /// Starts `forge serve ARGUMENTS` and reads its output until `marker` (the banner
    /// line that comes last for these arguments) and `otherMarker` have both appeared. A
    /// suite that sends its own requests (`BenchHTTPClient`) does without wrk (`needsWrk:
    /// false`; `wrk` is then empty).
    init(suite: String, arguments: [String], waitingFor marker: String, alsoWaitingFor otherMarker: String = "",
         needsWrk: Bool = true) {
        let found = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile)
        guard let wrk = found ?? (needsWrk ? nil : "") else {
            print("scripts/bench \(suite) needs wrk (Debian: apt-get install wrk)")
            exit(69)
        }
        let forgePath = benchForgeExecutable()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: forgePath)
        server.arguments = ["serve", "--port", "0"] + arguments
        let output = Pipe()
        server.standardOutput = output
        do { try server.run() } catch {
            print("cannot start \(forgePath): \(error)")
            exit(70)
        }
        var banner = ""
        while !banner.contains(marker) || !banner.contains(otherMarker) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            banner += String(decoding: data, as: UTF8.self)
        }
        guard let match = banner.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
            print("forge serve printed no address: \(banner)")
            server.terminate()
            exit(70)
        }
        process = server
        base = String(banner[match])
        tlsBase = banner.range(of: #"https://127\.0\.0\.1:[0-9]+"#, options: .regularExpression).map { String(banner[$0]) }
        self.wrk = wrk
    }
}

/// The `forge` to measure: `path` when given, else `RF_BENCH_FORGE` (e.g. the static
/// release in .build-release), else the release build beside this benchmark (scripts/bench
/// builds it); exits 66 when it is not there.
func benchForgeExecutable(_ path: String? = nil) -> String {
    let forgePath = path ?? ProcessInfo.processInfo.environment["RF_BENCH_FORGE"] ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("forge").path
    guard FileManager.default.isExecutableFile(atPath: forgePath) else {
        print("no forge executable at \(forgePath) (scripts/bench builds it)")
        exit(66)
    }
    return forgePath
}
