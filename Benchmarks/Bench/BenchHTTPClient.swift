import Foundation

/// A blocking HTTP/1.1 client on one keep-alive connection to 127.0.0.1, for the suites
/// that time single requests from several threads while the server is busy (wrk measures
/// throughput, not what one request waits while another holds the store). Answers with a
/// `Content-Length` only, as `forge serve` sends them. One thread at a time uses it.
final class BenchHTTPClient: @unchecked Sendable {
    // @unchecked: each client is used by one thread only (its prober's, or the suite's).
    private let port: UInt16
    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []

    /// A client of `base` (`http://127.0.0.1:PORT`).
    init(base: String) {
        guard let text = base.split(separator: ":").last, let port = UInt16(text) else {
            print("no port in \(base)")
            exit(70)
        }
        self.port = port
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sends one request and answers the status and body; nil when the connection fails.
    /// A kept-alive connection the server has closed meanwhile (it closes idle ones) is
    /// opened again once.
    func request(_ method: String, _ path: String, body: String = "") -> (status: Int, body: [UInt8])? {
        let reused = descriptor >= 0
        if let answer = attempt(method, path, body: body) { return answer }
        return reused ? attempt(method, path, body: body) : nil
    }

    private func attempt(_ method: String, _ path: String, body: String) -> (status: Int, body: [UInt8])? {
        if descriptor < 0, !open() { return nil }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n"
        if !body.isEmpty { request += "Content-Type: application/json\r\n" }
        request += "\r\n" + body
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return reset() }
            sent += count
        }
        guard let headerEnd = readUntil(separator: Array("\r\n\r\n".utf8)) else { return reset() }
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1]) else { return reset() }
        let length = lines.dropFirst().compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        while buffer.count < length {
            guard fill() else { return reset() }
        }
        let answer = Array(buffer[..<length])
        buffer.removeFirst(length)
        return (status, answer)
    }

    private func reset() -> (status: Int, body: [UInt8])? {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        buffer = []
        return nil
    }

    private func open() -> Bool {
        let opened = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard opened >= 0 else { return false }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(opened, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(opened)
            return false
        }
        var noDelay: Int32 = 1
        setsockopt(opened, Int32(IPPROTO_TCP), 1 /* TCP_NODELAY */, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        descriptor = opened
        return true
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private func readUntil(separator: [UInt8]) -> Int? {
        var searched = 0
        while true {
            if buffer.count >= separator.count {
                for start in max(0, searched - separator.count)...(buffer.count - separator.count)
                where buffer[start] == separator[0] && Array(buffer[start..<start + separator.count]) == separator {
                    return start
                }
                searched = buffer.count
            }
            guard fill() else { return nil }
        }
    }
}

/// Latencies in nanoseconds: p50, p99 and the largest.
struct LatencySample {
    private(set) var values: [Double] = []

    mutating func add(_ nanoseconds: Double) { values.append(nanoseconds) }

    func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    var count: Int { values.count }
    var maximum: Double { values.max() ?? 0 }
}
