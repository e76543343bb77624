import Foundation

/// `scripts/bench store-stall [--subscribers N] [--seconds S]`: `forge serve` (release,
/// `--quiet`, `--no-auth`, empty stores); N customers (10,000 unless told) each buy the
/// monthly subscription through the control API, then one
/// `POST /forge/v1/advanceClock {"seconds": S}` (a year unless told) renews them all
/// while two threads of this process time `GET /health` and Get Transaction Info
/// (`GET /inApps/v1/transactions/{id}`, a signed JWS) back to back, one request every
/// 2 ms, each on its own keep-alive connection. Prints p50, p99 and the largest wait of
/// each during the move and in the second before it, the move's wall time and how many
/// events it made. The goal (issue 35): p99 < 50 ms during the move: the move renews
/// in parts and releases the store's lock between them (`LocalAppStore.advanceClock`).
func runStoreStallBench(_ arguments: [String]) {
    var subscribers = 10_000, seconds = 31_536_000
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--subscribers": subscribers = iterator.next().flatMap(Int.init) ?? subscribers
        case "--seconds": seconds = iterator.next().flatMap(Int.init) ?? seconds
        default:
            print("usage: scripts/bench store-stall [--subscribers N] [--seconds S]")
            exit(64)
        }
    }
    let run = StoreBenchServer(suite: "store-stall", arguments: ["--customers", "0"])
    let (forge, server, client) = (run.forge, run.forge.process, run.client)
    var transaction = ""
    for number in 0..<subscribers {
        let body = #"{"customer": "subscriber-\#(number)", "productId": "com.example.receiptforge.subscription.monthly"}"#
        guard let bought = client.request("POST", "/forge/v1/buyProduct", body: body), bought.status == 200 else {
            run.fail("buyProduct failed for subscriber \(number)")
        }
        if number == 0, let answer = try? JSONDecoder().decode(BoughtAnswer.self, from: Data(bought.body)) {
            transaction = answer.transactionIds[0]
        }
    }
    print("store-stall: \(subscribers) monthly subscribers; advanceClock by \(seconds) s; load (1 min) \(loadAverage())")
    let probers = [("GET /health", Prober(base: forge.base, path: "/health", expect: "ok")),
                   ("Get Transaction Info", Prober(base: forge.base, path: "/inApps/v1/transactions/\(transaction)", expect: "signedTransactionInfo"))]
    for (_, prober) in probers { prober.start() }
    sleep(2)  // the baseline: two seconds of answers before the move

    let moveStart = monotonicNanoseconds()
    guard let moved = client.request("POST", "/forge/v1/advanceClock", body: #"{"seconds": \#(seconds)}"#), moved.status == 200 else {
        run.fail("advanceClock failed")
    }
    let moveEnd = monotonicNanoseconds()
    usleep(200_000)
    let events = count(of: Array(#""sequence":"#.utf8), in: moved.body)
    print("  advanceClock: \(formatDuration(Double(moveEnd - moveStart))) wall, \(events) events, answer \(moved.body.count / 1_048_576) MiB")
    print("\(pad("request", 24))\(pad("phase", 16))\(pad("answers", 10, right: true))\(pad("p50", 10, right: true))"
          + "\(pad("p99", 10, right: true))\(pad("max", 10, right: true))")
    for (name, prober) in probers {
        let (samples, failures) = prober.stop()
        for (phase, range) in [("before (1 s)", (moveStart - 1_000_000_000)..<moveStart), ("during the move", moveStart..<moveEnd)] {
            var sample = LatencySample()
            for item in samples where range.contains(item.start) { sample.add(item.wait) }
            print("\(pad(name, 24))\(pad(phase, 16))\(pad(String(sample.count), 10, right: true))"
                  + "\(pad(formatDuration(sample.percentile(0.5)), 10, right: true))\(pad(formatDuration(sample.percentile(0.99)), 10, right: true))"
                  + "\(pad(formatDuration(sample.maximum), 10, right: true))")
        }
        let longest = samples.filter { (moveStart..<moveEnd).contains($0.start) }.sorted { $0.wait > $1.wait }.prefix(3)
        print("  longest waits: " + longest.map {
            "\(formatDuration($0.wait)) from \(formatDuration(Double($0.start - moveStart))) into the move"
        }.joined(separator: ", "))
        if failures > 0 { print("  \(name): \(failures) failed answers") }
    }
    kill(server.processIdentifier, SIGTERM)
    server.waitUntilExit()
}

/// `scripts/bench store-soak [--customers N] [--time-rate RATE] [--minutes M] [--every S]`:
/// `forge serve` (release, `--quiet`, `--no-auth`, no webhook) with --customers
/// customers (1,000 unless told) in each store, its clocks at --time-rate
/// (`oneRenewalEveryTwoSeconds` unless told: a 30-day month every 2 s), left alone for
/// --minutes of wall time (10 unless told). Every --every seconds (30) a row: the
/// server's RSS (VmRSS), the production store's date, its events kept and dropped, and
/// the process's peak RSS. At the end Get Notification History is asked for the last
/// 150 days (production) and 15 (sandbox), timed, and must answer 200 with records. The
/// goal (issue 35): RSS levels off, as events and notifications older than Apple's history
/// windows are dropped (`StoreRetention`); what still grows is the transactions, which
/// the store keeps as Apple does.
func runStoreSoakBench(_ arguments: [String]) {
    var customers = 1_000, rate = "oneRenewalEveryTwoSeconds", minutes = 10.0, every = 30
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--customers": customers = iterator.next().flatMap(Int.init) ?? customers
        case "--time-rate": rate = iterator.next() ?? rate
        case "--minutes": minutes = iterator.next().flatMap(Double.init) ?? minutes
        case "--every": every = iterator.next().flatMap(Int.init) ?? every
        default:
            print("usage: scripts/bench store-soak [--customers N] [--time-rate RATE] [--minutes M] [--every S]")
            exit(64)
        }
    }
    let run = StoreBenchServer(suite: "store-soak", arguments: ["--customers", String(customers), "--time-rate", rate])
    let (server, client, document) = (run.forge.process, run.client, run.document)
    guard let customer = document.customers.first?.customerId else { run.fail("the store has no customers") }
    print("store-soak: \(document.customers.count) customers, \(document.subscriptions.count) subscriptions per store, "
          + "--time-rate \(rate), \(minutes) min; load (1 min) \(loadAverage())")
    print("\(pad("wall", 8, right: true))\(pad("RSS", 12, right: true))\(pad("peak RSS", 12, right: true))  \(pad("store date (production)", 24))"
          + "\(pad("events dropped", 16, right: true))  load (1 min)")
    let start = monotonicNanoseconds()
    while true {
        let elapsed = Double(monotonicNanoseconds() - start) / 1e9
        guard let answer = client.request("GET", "/forge/v1/state?customer=\(customer)&eventsLimit=1"),
              let summary = try? JSONDecoder().decode(StateSummary.self, from: Data(answer.body)) else {
            run.fail("no store state at \(Int(elapsed)) s")
        }
        let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(summary.now) / 1_000))
        print("\(pad(String(format: "%.0f s", elapsed), 8, right: true))\(pad(residentMiB(server.processIdentifier), 12, right: true))"
              + "\(pad(peakMiB(server.processIdentifier), 12, right: true))  \(pad(date, 24))"
              + "\(pad(String(summary.droppedEventCount ?? 0), 16, right: true))  \(loadAverage())")
        if elapsed >= minutes * 60 { break }
        sleep(UInt32(every))  // the sampling period of the curve, not synchronisation
    }
    // Once, at the end: the whole production state document (encoded outside the store's lock), timed.
    let asked = monotonicNanoseconds()
    guard let whole = client.request("GET", "/forge/v1/state"),
          let totals = try? JSONDecoder().decode(StateTotals.self, from: Data(whole.body)) else { run.fail("no whole state document") }
    print("the whole state document: \(whole.body.count / 1_048_576) MiB in \(formatDuration(Double(monotonicNanoseconds() - asked))): "
          + "\(totals.transactions.count) transactions, \(totals.events.count) events kept, \(totals.droppedEventCount ?? 0) dropped")
    // The clock runs on (at oneRenewalEveryTwoSeconds, 15 days a second): the window is
    // asked for from the store's instant read just before, with a margin for the wait.
    for (prefix, days) in [("", 150), ("/sandbox", 15)] {
        guard let fresh = client.request("GET", prefix + "/forge/v1/state?customer=\(customer)&eventsLimit=1"),
              let now = try? JSONDecoder().decode(StateSummary.self, from: Data(fresh.body)).now else {
            run.fail("no store state before the history")
        }
        let body = #"{"startDate": \#(now - Int64(days) * 86_400_000), "endDate": \#(now + 86_400_000)}"#
        let asked = monotonicNanoseconds()
        guard let answer = client.request("POST", prefix + "/inApps/v1/notifications/history", body: body) else { run.fail("no history answer") }
        let took = Double(monotonicNanoseconds() - asked)
        let records = count(of: Array(#""signedPayload":"#.utf8), in: answer.body)
        print("Get Notification History\(prefix.isEmpty ? "" : " (sandbox)"), last \(days) days: \(answer.status), \(records) records, "
              + "hasMore \(String(decoding: answer.body, as: UTF8.self).contains(#""hasMore":true"#)), \(formatDuration(took))")
        if answer.status != 200 || (prefix.isEmpty && records == 0) { run.fail("history does not answer within its window") }
    }
    kill(server.processIdentifier, SIGTERM)
    server.waitUntilExit()
}

/// `forge serve --quiet --no-auth ARGUMENTS` for a store suite, a client of it, and its
/// production state document (with one event).
private struct StoreBenchServer {
    let forge: BenchForgeServer
    let client: BenchHTTPClient
    let document: StateSummary

    init(suite: String, arguments: [String]) {
        forge = BenchForgeServer(suite: suite, arguments: ["--quiet", "--no-auth"] + arguments, waitingFor: "\n", needsWrk: false)
        client = BenchHTTPClient(base: forge.base)
        guard let state = client.request("GET", "/forge/v1/state?eventsLimit=1"),
              let document = try? JSONDecoder().decode(StateSummary.self, from: Data(state.body)) else {
            print("no store state from \(forge.base)")
            forge.process.terminate()
            exit(1)
        }
        self.document = document
    }

    /// Stops the server and exits 1 with `message`.
    func fail(_ message: String) -> Never {
        print(message)
        forge.process.terminate()
        exit(1)
    }
}

/// What buyProduct answers, as far as the suite reads it.
private struct BoughtAnswer: Decodable {
    let transactionIds: [String]
}

/// What the suites read of a state document.
private struct StateSummary: Decodable {
    struct Customer: Decodable { let customerId: String }
    struct Transaction: Decodable { let transactionId: String }
    struct Subscription: Decodable { let latestTransactionId: String? }
    let now: Int64
    let customers: [Customer]
    let transactions: [Transaction]
    let subscriptions: [Subscription]
    let droppedEventCount: Int?
}

/// A whole state document's sizes.
private struct StateTotals: Decodable {
    struct Item: Decodable {}
    let transactions: [Item]
    let events: [Item]
    let droppedEventCount: Int?
}

/// One prober of `store-stall`: a path asked every 2 ms on its own connection, each
/// answer's start (monotonic ns) and wait recorded.
private final class Prober: @unchecked Sendable {
    // @unchecked: `samples`, `failures` and `running` are touched only under `lock`;
    // `client` only by the prober's own thread.
    private let lock = NSLock()
    private var samples: [(start: UInt64, wait: Double)] = []
    private var failures = 0
    private var running = true
    private let client: BenchHTTPClient
    private let path: String
    private let expect: String

    init(base: String, path: String, expect: String) {
        client = BenchHTTPClient(base: base)
        self.path = path
        self.expect = expect
    }

    func start() {
        Thread { [self] in loop() }.start()
    }

    private func loop() {
        while lock.withLock({ running }) {
            let start = monotonicNanoseconds()
            let answer = client.request("GET", path)
            let wait = Double(monotonicNanoseconds() - start)
            let good = answer.map { $0.status == 200 && String(decoding: $0.body, as: UTF8.self).contains(expect) } ?? false
            lock.withLock {
                if good { samples.append((start, wait)) } else { failures += 1 }
            }
            usleep(2_000)  // pacing, not synchronisation: a client asking about 500 times a second
        }
    }

    func stop() -> (samples: [(start: UInt64, wait: Double)], failures: Int) {
        lock.withLock {
            running = false
            return (samples, failures)
        }
    }
}

/// How many times `needle` occurs in `bytes`.
private func count(of needle: [UInt8], in bytes: [UInt8]) -> Int {
    guard !needle.isEmpty, bytes.count >= needle.count else { return 0 }
    var found = 0
    var index = 0
    while index <= bytes.count - needle.count {
        if bytes[index] == needle[0], Array(bytes[index..<index + needle.count]) == needle {
            found += 1
            index += needle.count
        } else {
            index += 1
        }
    }
    return found
}

/// VmHWM (peak resident set) of a process, in MiB.
private func peakMiB(_ pid: Int32) -> String {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return "?" }
    return String(format: "%.1f MiB", kilobytes / 1024)
}
