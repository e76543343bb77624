import AppInput
import Crypto
import Foundation
import ReceiptForge
import StoreAPIAuthentication
import StoreKit2

/// `scripts/bench serve`: `forge serve` (release build, `--quiet`) under `wrk` over
/// loopback, POSTing one forge receipt to /verifyReceipt on keep-alive connections:
/// requests per second and p50/p99 latency at 32 and 256 connections, and the server's
/// resident memory (VmRSS) after at least 10 000 and 1 000 000 requests. Answers are
/// checked before and after (status 0 for the receipt); wrk's non-2xx count is printed.
///
/// In the same run, the App Store Server API of the server's default (populated)
/// production store at 32 connections: Get Transaction Info
/// (`GET /inApps/v1/transactions/{id}`) and a history page (`GET /inApps/v2/history/{id}`)
/// of the customer with the most transactions, every request carrying one bearer token
/// made with the forge's test key (the key `forge serve` accepts by default), valid for
/// an hour. Ids come from the store's `/forge/v1/state`. Each row prints the load
/// average of the minute before it: the machine is shared.
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
    guard let forgeCase = ForgeCase.named(caseID), let receipt = try? Forge().mint(forgeCase).receipt else {
        print("no receipt for case \(caseID)")
        exit(64)
    }

    // The server.
    let forge = BenchForgeServer(suite: "serve", arguments: ["--quiet"], waitingFor: "\n")
    let server = forge.process, wrk = forge.wrk
    let url = forge.base + "/verifyReceipt"

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
        let bodyFile = directory.appendingPathComponent("body.json")
        try? Data(body.utf8).write(to: bodyFile)
        guard let answer = curl(["-s", "--data-binary", "@" + bodyFile.path, url]) else {
            return print("(curl missing: answer not checked \(when))")
        }
        guard answer.hasSuffix("\"status\":0}") else {
            print("wrong answer \(when): \(answer.prefix(200))")
            server.terminate()
            exit(1)
        }
    }

    var total = 0
    func run(connections: Int, seconds: Int, url: String = url, script: URL = script) -> WrkResult {
        let result = runWrk(wrk, connections: connections, seconds: seconds, script: script, url: url)
        total += result.requests
        return result
    }

    print("forge serve bench: case \(caseID), receipt \(receipt.count) bytes (request body \(body.utf8.count) bytes), wrk -t 2, keep-alive, loopback")
    check("before the run")
    print("RSS at start: \(residentMiB(server.processIdentifier))")
    while total < 10_000 { _ = run(connections: 32, seconds: 1) }
    print("RSS after \(total) requests: \(residentMiB(server.processIdentifier))")

    // The Server API's requests: GETs with the bearer token, as a wrk script.
    let base = forge.base
    let ids = serverAPIIds(base: base)
    let token = benchToken(seed: ForgeSettings.defaultSeed, bundleIdentifier: AppDescription.example.bundleIdentifier)
    let authorized = directory.appendingPathComponent("get.lua")
    try? Data("""
        wrk.method = "GET"
        wrk.headers["Authorization"] = "Bearer \(token)"
        """.utf8).write(to: authorized)
    let serverAPI = [
        ("Get Transaction Info", base + "/inApps/v1/transactions/\(ids.transaction)", "signedTransactionInfo"),
        ("history page (\(ids.pageSize) transactions)", base + "/inApps/v2/history/\(ids.transaction)", "signedTransactions"),
    ]
    func checkServerAPI(_ when: String) {
        for (name, endpoint, member) in serverAPI {
            guard let answer = curl(["-s", "-H", "Authorization: Bearer \(token)", endpoint]) else {
                return print("(curl missing: answers not checked \(when))")
            }
            guard answer.contains("\"\(member)\":") else {
                print("wrong \(name) answer \(when): \(answer.prefix(200))")
                server.terminate()
                exit(1)
            }
        }
    }
    checkServerAPI("before the run")

    print("\(pad("endpoint", 36))\(pad("connections", 12, right: true))\(pad("requests/s", 12, right: true))"
          + "\(pad("p50", 10, right: true))\(pad("p99", 10, right: true))  load (1 min)")
    func row(_ name: String, _ connections: Int, _ result: WrkResult, load: String) {
        print("\(pad(name, 36))\(pad(String(connections), 12, right: true))\(pad(String(format: "%.0f", result.requestsPerSecond), 12, right: true))"
              + "\(pad(formatDuration(result.p50 * 1e9), 10, right: true))\(pad(formatDuration(result.p99 * 1e9), 10, right: true))  \(load)")
    }
    var verifyAt32 = 0.0
    for connections in [32, 256] {
        let load = loadAverage()
        let result = run(connections: connections, seconds: duration)
        row("POST /verifyReceipt", connections, result, load: load)
        if connections == 32 { verifyAt32 = result.requestsPerSecond }
    }
    for (index, (name, endpoint, _)) in serverAPI.enumerated() {
        _ = run(connections: 32, seconds: 1, url: endpoint, script: authorized)  // warm-up: the first answers sign
        let load = loadAverage()
        let result = run(connections: 32, seconds: duration, url: endpoint, script: authorized)
        row(name, 32, result, load: load)
        if index == 0, verifyAt32 > 0 {
            print(String(format: "  Get Transaction Info / verifyReceipt at 32 connections: %.2f×", result.requestsPerSecond / verifyAt32))
        }
    }
    checkServerAPI("after the run")
    let afterMeasure = total
    while total < soak { _ = run(connections: 64, seconds: 10) }
    print("RSS after \(afterMeasure) requests: \(residentMiB(server.processIdentifier)); after \(total): \(residentMiB(server.processIdentifier))")
    check("after \(total) requests")

    let stopping = monotonicNanoseconds()
    kill(server.processIdentifier, SIGTERM)
    server.waitUntilExit()
    print("SIGTERM to exit: \(formatDuration(Double(monotonicNanoseconds() - stopping))), exit status \(server.terminationStatus)")
}

/// One `wrk -t 2 --latency` run of `seconds` at `connections` with the Lua `script`;
/// prints the count of non-2xx answers and socket errors when there are any.
func runWrk(_ wrk: String, connections: Int, seconds: Int, script: URL, url: String) -> WrkResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: wrk)
    process.arguments = ["-t", "2", "-c", String(connections), "-d", "\(seconds)s", "--latency", "-s", script.path, url]
    let pipe = Pipe()
    process.standardOutput = pipe
    try? process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let result = WrkResult(text)
    if result.errors > 0 { print("  wrk: \(result.errors) non-2xx answers or socket errors (\(connections) connections)") }
    return result
}

/// curl's output for `arguments`; nil when curl cannot be started.
func curl(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let answer = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return answer
}

/// The ids the Server API rows ask for, from the server's production store: a
/// transaction of the customer with the most transactions (so the history page is as
/// full as the population makes it), and how many transactions its first page holds.
func serverAPIIds(base: String) -> (transaction: String, pageSize: Int) {
    struct State: Decodable {
        struct Transaction: Decodable {
            let transactionId: String
            let customerId: String
        }
        let transactions: [Transaction]
    }
    let text = curl(["-s", base + "/forge/v1/state"]) ?? ""
    guard let state = try? JSONDecoder().decode(State.self, from: Data(text.utf8)) else {
        print("no store state from \(base)/forge/v1/state (curl is needed): \(text.prefix(200))")
        exit(70)
    }
    let byCustomer = Dictionary(grouping: state.transactions, by: \.customerId)
    // The most transactions; of equals, the first customer id, so each run asks the same.
    guard let busiest = byCustomer.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else {
        print("the server's store has no transactions")
        exit(70)
    }
    return (busiest.value[0].transactionId, min(busiest.value.count, 20))
}

/// An ES256 bearer token for the App Store Server API made with the forge's test key of
/// `seed`, as Apple's clients make one (`kid` in the header; `iss`, `aud`, `bid`, `iat`
/// and `exp` claims), valid for an hour from now.
func benchToken(seed: UInt64, bundleIdentifier: String) -> String {
    let key = TestAPIKey(seed: seed)
    let now = Int(Date().timeIntervalSince1970)
    let header = #"{"alg":"ES256","kid":"\#(key.keyIdentifier)","typ":"JWT"}"#
    let claims = #"{"iss":"\#(key.issuerIdentifier)","aud":"\#(BearerTokenVerifier.audience)","bid":"\#(bundleIdentifier)","#
        + #""iat":\#(now),"exp":\#(now + Int(BearerTokenVerifier.maximumLifetime))}"#
    let input = CompactJWS.signingInput(header: Array(header.utf8), payload: Array(claims.utf8))
    guard let signature = try? key.privateKey.signature(for: input) else {
        print("cannot sign a bearer token")
        exit(70)
    }
    return String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(Array(signature.rawRepresentation))
}

/// The one-minute load average (/proc/loadavg): other work on the shared machine.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
    return String(text.split(separator: " ").first ?? "?")
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
