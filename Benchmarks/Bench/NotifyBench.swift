import Foundation

/// `scripts/bench notify`: `forge serve` (release build, `--quiet`, empty stores,
/// `--no-auth`) sending Server Notifications V2 to a webhook in this process on
/// 127.0.0.1, over keep-alive connections.
///
/// 1. wrk buys a consumable through the control API (`/forge/v1/buyProduct`, 1,000
///    customers in turn) until `--notifications N` purchases (default 100,000) are made:
///    each is a ONE_TIME_CHARGE notification, sent at once; the webhook answers 500, so
///    each gets its production retry an hour later in store time.
/// 2. The webhook answers 200 from now on, and one `advanceClock` of an hour makes every
///    retry due at once: notifications signed (payload, transaction) and delivered per
///    second is the backlog over the time from the clock move to the last delivery.
/// 3. The server's RSS (VmRSS) with those N notifications (two attempts each) in its
///    history, a Get Notification History page checked and timed, and a page that
///    filters the whole history (`onlyFailures` when none failed) timed.
///
/// Each phase prints the load average of the minute before it: the machine is shared.
func runNotifyBench(_ arguments: [String]) {
    var target = 100_000
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--notifications": target = iterator.next().flatMap(Int.init) ?? target
        default:
            print("usage: scripts/bench notify [--notifications N]")
            exit(64)
        }
    }
    let webhook: BenchWebhook
    do { webhook = try BenchWebhook() } catch {
        print("cannot listen on 127.0.0.1: \(error)")
        exit(70)
    }

    let forge = BenchForgeServer(suite: "notify", arguments: ["--quiet", "--customers", "0", "--no-auth",
                                                              "--notify-url", "http://127.0.0.1:\(webhook.port)/hook"],
                                 waitingFor: "Notifications V2")
    let server = forge.process, wrk = forge.wrk, base = forge.base
    func fail(_ message: String) -> Never {
        print(message)
        server.terminate()
        exit(1)
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forge-bench-notify-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("buy.lua")
    try? Data("""
        local threads = 0
        function setup(thread)
            threads = threads + 1
            thread:set("id", threads)
        end
        local counter = 0
        function request()
            counter = counter + 1
            local body = '{"customer":"bench-' .. id .. '-' .. (counter % 500) .. '","productId":"com.example.receiptforge.coins100"}'
            return wrk.format("POST", "/forge/v1/buyProduct", {["Content-Type"] = "application/json"}, body)
        end
        """.utf8).write(to: script)

    print("forge serve notify bench: \(target) notifications to a webhook on 127.0.0.1 (keep-alive), forge serve --quiet --customers 0")
    print("RSS at start: \(residentMiB(server.processIdentifier))")

    // 1. The purchases; every first attempt answered 500.
    var bought = 0
    let purchaseLoad = loadAverage()
    let purchaseStart = monotonicNanoseconds()
    while bought < target {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        let seconds = max(1, min(10, (target - bought) / 5_000))
        process.arguments = ["-t", "2", "-c", "32", "-d", "\(seconds)s", "-s", script.path, base]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let result = WrkResult(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        process.waitUntilExit()
        // Requests cut off by the end of a run (or wrk's 2 s timeout on a loaded machine) are
        // socket errors, not refusals: the webhook count below is what was bought.
        if result.errors > 0 { print("  wrk: \(result.errors) non-2xx answers or socket errors (timeouts at the end of a run)") }
        bought += result.requests
    }
    let purchaseSeconds = Double(monotonicNanoseconds() - purchaseStart) / 1e9
    print(String(format: "purchases: %d in %.1f s (%.0f/s, control API, 32 connections), load %@", bought, purchaseSeconds,
                 Double(bought) / purchaseSeconds, purchaseLoad))
    guard webhook.wait(forRequests: bought, seconds: 600) else { fail("the webhook got \(webhook.count) of \(bought) first attempts") }
    let firstAttempts = webhook.span
    print(String(format: "first attempts (answered 500) kept up: %d in %.1f s from the first to the last", bought, firstAttempts))

    // 2. The retries, all due at once.
    webhook.succeed()
    let drainLoad = loadAverage()
    let drainStart = monotonicNanoseconds()
    guard curl(["-s", "-d", #"{"seconds":3600}"#, base + "/forge/v1/advanceClock"]) != nil else { fail("curl is needed") }
    guard webhook.wait(forRequests: 2 * bought, seconds: 1_200) else { fail("the webhook got \(webhook.count - bought) of \(bought) retries") }
    let drainSeconds = Double(monotonicNanoseconds() - drainStart) / 1e9
    print(String(format: "retries signed and delivered: %d in %.2f s = %.0f notifications/s (goal >= 1,000/s), load %@",
                 bought, drainSeconds, Double(bought) / drainSeconds, drainLoad))

    // 3. Memory with the whole history, and the history answering.
    print("RSS with \(bought) notifications in history: \(residentMiB(server.processIdentifier)) (goal < 200 MiB), load \(loadAverage())")
    let state = curl(["-s", base + "/forge/v1/state"]) ?? ""
    guard let nowMatch = state.range(of: #""now":[0-9]+"#, options: .regularExpression),
          let now = Int64(state[nowMatch].dropFirst(6)) else { fail("no store clock in the state") }
    let page = curl(["-s", "-d", #"{"startDate":\#(now - 86_400_000),"endDate":\#(now + 1)}"#, base + "/inApps/v1/notifications/history"]) ?? ""
    guard page.contains(#""hasMore":true"#), page.contains("\"SUCCESS\"") else { fail("wrong history page: \(page.prefix(300))") }
    let historyStart = monotonicNanoseconds()
    _ = curl(["-s", "-o", "/dev/null", "-d", #"{"startDate":\#(now - 86_400_000),"endDate":\#(now + 1)}"#, base + "/inApps/v1/notifications/history"])
    print("a history page (20 notifications signed on demand): \(formatDuration(Double(monotonicNanoseconds() - historyStart))) with curl")
    // Every notification is delivered by now, so onlyFailures matches none: the whole history is filtered for an empty page.
    let failuresBody = #"{"startDate":\#(now - 86_400_000),"endDate":\#(now + 1),"onlyFailures":true}"#
    let scanStart = monotonicNanoseconds()
    let failures = curl(["-s", "-d", failuresBody, base + "/inApps/v1/notifications/history"]) ?? ""
    let scanTime = formatDuration(Double(monotonicNanoseconds() - scanStart))
    guard failures.contains(#""notificationHistory":[]"#) else { fail("onlyFailures found failures: \(failures.prefix(300))") }
    print("a page that matches nothing (onlyFailures with every notification delivered: all \(bought) filtered): \(scanTime) with curl")

    kill(server.processIdentifier, SIGTERM)
    server.waitUntilExit()
    print("exit status \(server.terminationStatus)")
}

/// A webhook for the benchmark: HTTP/1.1 keep-alive on 127.0.0.1, a thread per
/// connection, each request's body read (Content-Length) and answered 500 until
/// `succeed()`, 200 after. Counts requests and when the first and last arrived.
final class BenchWebhook: @unchecked Sendable {
    // @unchecked: `requests`, `first`, `last` and `status` are only touched with `condition` held.
    private let condition = NSCondition()
    private var requests = 0
    private var first: UInt64 = 0
    private var last: UInt64 = 0
    private var status = 500
    private let listener: Int32
    let port: Int

    struct NotifyBenchError: Error { let step: String }

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound, listen(descriptor, 256) == 0 else { throw NotifyBenchError(step: "bind/listen") }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var count: Int { condition.withLock { requests } }

    /// Seconds from the first request to the last.
    var span: Double { condition.withLock { Double(last - first) / 1e9 } }

    func succeed() { condition.withLock { status = 200 } }

    /// Waits until `count` requests have arrived; false after `seconds`.
    func wait(forRequests count: Int, seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while requests < count {
            guard condition.wait(until: deadline) else { return requests >= count }
        }
        return true
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    /// Reads requests off one connection until it closes.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            // The head.
            var headEnd: Int?
            while headEnd == nil {
                if let range = buffer.firstRange(of: separator) { headEnd = range.upperBound; break }
                let read = recv(connection, &chunk, chunk.count, 0)
                guard read > 0 else { return }
                buffer += chunk[0..<read]
            }
            let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            while buffer.count < headEnd! + length {
                let read = recv(connection, &chunk, chunk.count, 0)
                guard read > 0 else { return }
                buffer += chunk[0..<read]
            }
            buffer.removeFirst(headEnd! + length)
            let status = condition.withLock { () -> Int in
                requests += 1
                let now = monotonicNanoseconds()
                if first == 0 { first = now }
                last = now
                condition.broadcast()
                return self.status
            }
            let answer = Array("HTTP/1.1 \(status) \(status == 200 ? "OK" : "Internal Server Error")\r\nContent-Length: 0\r\n\r\n".utf8)
            guard answer.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == answer.count else { return }
        }
    }
}
