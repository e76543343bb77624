import Foundation
import ReceiptForge

/// `scripts/bench serve`: `forge serve` (release build, `--quiet`) under `wrk` over
/// loopback, POSTing one forge receipt to /verifyReceipt on keep-alive connections:
/// requests per second and p50/p99 latency at 32 and 256 connections, and the server's
/// resident memory (VmRSS) after at least 10 000 and 1 000 000 requests. Answers are
/// checked before and after (status 0 for the receipt); wrk's non-2xx count is printed.
///
/// Options: `--duration S` per measured phase (default 10), `--soak N` requests before the
/// last memory reading (default 1000000), `--case ID` the receipt (default valid).
func runServeBench(_ arguments: [String]) {
    var duration = 10, soak = 1_000_000, caseID = "valid"
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--duration": duration = iterator.next().flatMap(Int.init) ?? duration
        case "--soak": soak = iterator.next().flatMap(Int.init) ?? soak
        case "--case": caseID = iterator.next() ?? caseID
        default:
            print("usage: scripts/bench serve [--duration S] [--soak N] [--case ID]")
            exit(64)
        }
    }
    guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile) else {
        print("scripts/bench serve needs wrk (Debian: apt-get install wrk)")
        exit(69)
    }
    let forgePath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("forge").path
    guard FileManager.default.isExecutableFile(atPath: forgePath) else {
        print("no forge executable at \(forgePath) (scripts/bench builds it)")
        exit(66)
    }
    guard let forgeCase = ForgeCase.named(caseID), let receipt = try? Forge().mint(forgeCase).receipt else {
        print("no receipt for case \(caseID)")
        exit(64)
    }

    // The server.
    let server = Process()
    server.executableURL = URL(fileURLWithPath: forgePath)
    server.arguments = ["serve", "--port", "0", "--quiet"]
    let output = Pipe()
    server.standardOutput = output
    do { try server.run() } catch {
        print("cannot start \(forgePath): \(error)")
        exit(70)
    }
    var banner = ""
    while !banner.contains("\n") {
        let data = output.fileHandleForReading.availableData
        if data.isEmpty { break }
        banner += String(decoding: data, as: UTF8.self)
    }
    guard let match = banner.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
        print("forge serve printed no address: \(banner)")
        server.terminate()
        exit(70)
    }
    let url = "http://" + banner[match] + "/verifyReceipt"

    // The request, as a wrk script.
    let body = "{\"receipt-data\":\"\(Data(receipt).base64EncodedString())\"}"
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-bench-serve-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("post.lua")
    try? Data("""
        wrk.method = "POST"
        wrk.headers["Content-Type"] = "application/json"
        wrk.body = '\(body)'
        """.utf8).write(to: script)

    func check(_ when: String) {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let bodyFile = directory.appendingPathComponent("body.json")
        try? Data(body.utf8).write(to: bodyFile)
        curl.arguments = ["curl", "-s", "--data-binary", "@" + bodyFile.path, url]
        let pipe = Pipe()
        curl.standardOutput = pipe
        guard (try? curl.run()) != nil else { return print("(curl missing: answer not checked \(when))") }
        let answer = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        guard answer.hasSuffix("\"status\":0}") else {
            print("wrong answer \(when): \(answer.prefix(200))")
            server.terminate()
            exit(1)
        }
    }

    var total = 0
    func run(connections: Int, seconds: Int) -> WrkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t", "2", "-c", String(connections), "-d", "\(seconds)s", "--latency", "-s", script.path, url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let result = WrkResult(text)
        total += result.requests
        if result.errors > 0 { print("  wrk: \(result.errors) non-2xx answers or socket errors (\(connections) connections)") }
        return result
    }

    print("forge serve bench: case \(caseID), receipt \(receipt.count) bytes (request body \(body.utf8.count) bytes), wrk -t 2, keep-alive, loopback")
    check("before the run")
    print("RSS at start: \(residentMiB(server.processIdentifier))")
    while total < 10_000 { _ = run(connections: 32, seconds: 1) }
    print("RSS after \(total) requests: \(residentMiB(server.processIdentifier))")
    print("\(pad("connections", 12))\(pad("requests/s", 12, right: true))\(pad("p50", 10, right: true))\(pad("p99", 10, right: true))")
    for connections in [32, 256] {
        let result = run(connections: connections, seconds: duration)
        print("\(pad(String(connections), 12))\(pad(String(format: "%.0f", result.requestsPerSecond), 12, right: true))"
              + "\(pad(formatDuration(result.p50 * 1e9), 10, right: true))\(pad(formatDuration(result.p99 * 1e9), 10, right: true))")
    }
    let afterMeasure = total
    while total < soak { _ = run(connections: 64, seconds: 10) }
    print("RSS after \(afterMeasure) requests: \(residentMiB(server.processIdentifier)); after \(total): \(residentMiB(server.processIdentifier))")
    check("after \(total) requests")

    let stopping = monotonicNanoseconds()
    kill(server.processIdentifier, SIGTERM)
    server.waitUntilExit()
    print("SIGTERM to exit: \(formatDuration(Double(monotonicNanoseconds() - stopping))), exit status \(server.terminationStatus)")
}

/// The numbers of one wrk run (`--latency` output).
struct WrkResult {
    var requests = 0
    var requestsPerSecond = 0.0
    /// Seconds.
    var p50 = 0.0, p99 = 0.0
    var errors = 0

    init(_ text: String) {
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("50%"), fields.count >= 2 { p50 = Self.seconds(fields[1]) }
            if line.hasPrefix("99%"), fields.count >= 2 { p99 = Self.seconds(fields[1]) }
            if line.contains("requests in"), let count = Int(fields[0]) { requests = count }
            if line.hasPrefix("Requests/sec:"), fields.count >= 2 { requestsPerSecond = Double(fields[1]) ?? 0 }
            if line.hasPrefix("Non-2xx"), let count = fields.last.flatMap({ Int($0) }) { errors += count }
            if line.hasPrefix("Socket errors:") {
                errors += line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
            }
        }
    }

    /// `812.00us`, `1.23ms`, `2.00s` → seconds.
    static func seconds(_ text: Substring) -> Double {
        for (unit, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where text.hasSuffix(unit) {
            return (Double(text.dropLast(unit.count)) ?? 0) * scale
        }
        return 0
    }
}

/// VmRSS of a process, in MiB.
func residentMiB(_ pid: Int32) -> String {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return "?" }
    return String(format: "%.1f MiB", kilobytes / 1024)
}
