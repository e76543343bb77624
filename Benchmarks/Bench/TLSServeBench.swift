import AppInput
import Foundation
import ReceiptForge

/// `scripts/bench serve-tls`: Get Transaction Info on one `forge serve --tls-port`
/// (release, `--quiet`), over plain HTTP/1.1 and HTTPS/1.1 (wrk) and over HTTP/2 on TLS
/// (h2load, Debian's nghttp2-client), at 32 connections, in one run: requests/s, p50 and
/// p99, and each TLS figure's ratio to plain HTTP's. The answers are checked first (curl).
/// Goal (issue 36): ≥ 5,000 requests/s and p99 < 10 ms at 32 connections over TLS.
///
/// Options: `--duration S` per wrk phase (default 10), `--requests N` for h2load
/// (default 100000).
func runTLSServeBench(_ arguments: [String]) {
    var duration = 10, requests = 100_000
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--duration": duration = iterator.next().flatMap(Int.init) ?? duration
        case "--requests": requests = iterator.next().flatMap(Int.init) ?? requests
        default:
            print("usage: scripts/bench serve-tls [--duration S] [--requests N]")
            exit(64)
        }
    }
    guard let h2load = ["/usr/bin/h2load", "/usr/local/bin/h2load"].first(where: FileManager.default.isExecutableFile) else {
        print("scripts/bench serve-tls needs h2load (Debian: apt-get install nghttp2-client)")
        exit(69)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-bench-tls-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let forge = BenchForgeServer(suite: "serve-tls", arguments: ["--quiet", "--tls-port", "0", "--tls-dir", directory.appendingPathComponent("tls").path],
                                 waitingFor: "listening on https://", alsoWaitingFor: "listening on http://")
    let server = forge.process
    guard let tlsBase = forge.tlsBase else {
        print("forge serve printed no https address")
        server.terminate()
        exit(70)
    }
    let ids = serverAPIIds(base: forge.base)
    let token = benchToken(seed: ForgeSettings.defaultSeed, bundleIdentifier: AppDescription.example.bundleIdentifier)
    let path = "/inApps/v1/transactions/\(ids.transaction)"
    let ca = directory.appendingPathComponent("tls/ca.pem").path
    for (label, arguments) in [("HTTP/1.1", [forge.base + path]), ("HTTPS/1.1", ["--cacert", ca, "--http1.1", tlsBase + path]),
                               ("HTTP/2", ["--cacert", ca, "--http2", tlsBase + path])] {
        guard let answer = curl(["-s", "-H", "Authorization: Bearer \(token)"] + arguments) else {
            print("(curl missing: answers not checked)")
            break
        }
        guard answer.contains("\"signedTransactionInfo\":") else {
            print("wrong Get Transaction Info answer over \(label): \(answer.prefix(200))")
            server.terminate()
            exit(1)
        }
    }
    let script = directory.appendingPathComponent("get.lua")
    try? Data("""
        wrk.method = "GET"
        wrk.headers["Authorization"] = "Bearer \(token)"
        """.utf8).write(to: script)
    func wrk(_ url: String, seconds: Int) -> WrkResult {
        runWrk(forge.wrk, connections: 32, seconds: seconds, script: script, url: url)
    }
    /// h2load's requests/s and the p50 and p99 of its per-request log (microseconds).
    func h2(_ url: String, count: Int) -> (perSecond: Double, p50: Double, p99: Double) {
        let log = directory.appendingPathComponent("h2load-\(count).log")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: h2load)
        process.arguments = ["-n", String(count), "-c", "32", "-t", "2", "-m", "1", "-H", "Authorization: Bearer \(token)",
                             "--log-file=\(log.path)", url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var perSecond = 0.0
        for line in text.split(separator: "\n") where line.hasPrefix("finished in") {
            // finished in 5.21s, 19188.49 req/s, 17.16MB/s
            perSecond = line.split(separator: ",").dropFirst().first.flatMap { Double($0.split(separator: " ").first ?? "") } ?? 0
        }
        for line in text.split(separator: "\n") where line.hasPrefix("requests:") && !line.contains(" 0 failed") {
            print("  h2load: \(line)")
        }
        // Each line: start (µs since the epoch), status, elapsed (µs).
        let times = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { $0.split(separator: "\t").last.flatMap { Double($0) } }.sorted()
        guard !times.isEmpty else { return (perSecond, 0, 0) }
        return (perSecond, times[times.count / 2] * 1e-6, times[min(times.count - 1, times.count * 99 / 100)] * 1e-6)
    }

    print("forge serve TLS bench: Get Transaction Info, 32 connections, loopback, wrk -t 2 (HTTP/1.1), h2load -t 2 -m 1 (HTTP/2)")
    _ = wrk(forge.base + path, seconds: 1)  // warm-up: the first answers sign
    _ = wrk(tlsBase + path, seconds: 1)
    print("\(pad("transport", 24))\(pad("requests/s", 12, right: true))\(pad("p50", 10, right: true))\(pad("p99", 10, right: true))"
          + "\(pad("× plain", 10, right: true))  load (1 min)")
    let load = loadAverage()
    let plain = wrk(forge.base + path, seconds: duration)
    func row(_ name: String, _ perSecond: Double, _ p50: Double, _ p99: Double, _ load: String) {
        print("\(pad(name, 24))\(pad(String(format: "%.0f", perSecond), 12, right: true))\(pad(formatDuration(p50 * 1e9), 10, right: true))"
              + "\(pad(formatDuration(p99 * 1e9), 10, right: true))\(pad(String(format: "%.2f", perSecond / max(plain.requestsPerSecond, 1)), 10, right: true))  \(load)")
    }
    row("HTTP/1.1 (plain)", plain.requestsPerSecond, plain.p50, plain.p99, load)
    let tlsLoad = loadAverage()
    let tls = wrk(tlsBase + path, seconds: duration)
    row("HTTPS/1.1 (TLS 1.3)", tls.requestsPerSecond, tls.p50, tls.p99, tlsLoad)
    let h2Load = loadAverage()
    let http2 = h2(tlsBase + path, count: requests)
    row("HTTP/2 (TLS, ALPN h2)", http2.perSecond, http2.p50, http2.p99, h2Load)

    kill(server.processIdentifier, SIGTERM)
    server.waitUntilExit()
}
