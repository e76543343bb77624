#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One `GET` of a plain-HTTP URL, as a container's health check makes it: connect, send,
/// read the status line, every step within one deadline. No HTTP library: the probe is
/// a few system calls, so `forge-serve health` starts in milliseconds in an image with
/// nothing else in it.
struct HealthProbe {
    /// Why the probe failed, naming the step.
    struct ProbeError: Error, CustomStringConvertible {
        var description: String
    }

    let host: String
    let port: UInt16
    let path: String
    /// The whole probe's deadline, in milliseconds.
    let timeoutMilliseconds: Int32

    /// `http://HOST[:PORT][/PATH]`; PORT defaults to 80, PATH to `/`.
    init(url: String, timeoutMilliseconds: Int32) throws(ProbeError) {
        guard url.hasPrefix("http://") else {
            throw ProbeError(description: "\(url) is not an http:// URL (the probe speaks plain HTTP to the server beside it)")
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        var host = Substring(authority), port: UInt16 = 80
        if let colon = authority.lastIndex(of: ":"), !authority.hasPrefix("[") || authority[..<colon].hasSuffix("]") {
            guard let parsed = UInt16(authority[authority.index(after: colon)...]), parsed > 0 else {
                throw ProbeError(description: "\(url): the port '\(authority[authority.index(after: colon)...])' is not 1 to 65535")
            }
            host = authority[..<colon]
            port = parsed
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw ProbeError(description: "\(url) names no host") }
        self.host = String(host)
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The status code of the answer.
    func status() throws(ProbeError) -> Int {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            throw ProbeError(description: "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(first) }
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProbeError(description: "socket: \(Self.lastError())") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: Int(timeoutMilliseconds / 1_000), tv_usec: Int(timeoutMilliseconds % 1_000) * 1_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Non-blocking connect, waited for with poll: a host that never answers the SYN
        // fails at the deadline, not after the kernel's two minutes.
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        if connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { throw ProbeError(description: "connect to \(host):\(port): \(Self.lastError())") }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&waiting, 1, timeoutMilliseconds) == 1 else {
                throw ProbeError(description: "connect to \(host):\(port): no answer within \(timeoutMilliseconds) ms")
            }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            guard failure == 0 else {
                throw ProbeError(description: "connect to \(host):\(port): \(String(cString: strerror(failure)))")
            }
        }
        _ = fcntl(descriptor, F_SETFL, flags)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUser-Agent: forge-serve-health\r\nConnection: close\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw ProbeError(description: "send to \(host):\(port): \(Self.lastError())") }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !answer.contains(0x0A), answer.count < 4_096 {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                throw ProbeError(description: count == 0 ? "\(host):\(port) closed the connection before a status line"
                                                      : "reading from \(host):\(port): \(Self.lastError())")
            }
            answer += buffer[..<count]
        }
        let line = String(decoding: answer.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw ProbeError(description: "\(host):\(port) answered '\(line.prefix(80))', not an HTTP status line")
        }
        return code
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
