import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NotificationDelivery

/// POSTs notifications as the App Store does: `Content-Type: application/json`, the
/// body `{"signedPayload": …}`, redirects followed (five at most, a cycle is
/// `CIRCULAR_REDIRECT`), each attempt bounded by `timeout` from connecting to the last
/// byte of the answer. http and https; `trustRoots` adds a test CA for https.
///
/// How outcomes become Apple's words (Apple lists them without defining them):
/// 200–206 `SUCCESS`, any other status `UNSUCCESSFUL_HTTP_RESPONSE_CODE`; no answer in
/// time `TIMED_OUT`; nothing accepting the connection (refused, unreachable, unknown
/// host) `NO_RESPONSE`; the connection closed or reset before a whole answer `PREMATURE_CLOSE`;
/// a TLS failure `TLS_ISSUE`; an answer that is not HTTP `INVALID_RESPONSE`; another
/// socket error `SOCKET_ISSUE`; anything else `OTHER`.
///
/// Up to `maximumConnectionsPerHost` POSTs to one host are sent at once, each on its own
/// connection. The timeout counts from the call to `post`, so no attempt may wait for a
/// connection: give at least as many as the couriers sharing the sender send at once
/// (`NotificationCourier.maximumConcurrentAttempts`, times the couriers that may post to
/// the same host). An attempt beyond the limit would wait for another's connection and
/// spend its timeout waiting.
public final class HTTPWebhookSender: WebhookSender {
    public let timeout: Duration
    /// Connections opened to one host at most (AsyncHTTPClient's soft limit per host).
    public let maximumConnectionsPerHost: Int
    /// `timeout` as SwiftNIO counts it.
    private let timeoutAmount: TimeAmount
    private let client: HTTPClient

    /// The answer's body is read (to keep the connection reusable) up to this size; a
    /// webhook that sends more does not hold the sender up.
    public static let maximumResponseBody = 64 * 1024

    /// The default `maximumConnectionsPerHost`: `forge serve`'s default concurrency (16) for each of its two couriers.
    public static let defaultMaximumConnectionsPerHost = 32

    /// `trustRoots`: PEM or DER certificates an https webhook's chain may end at, besides
    /// the system's. `maximumConnectionsPerHost`: at least the attempts made at once to one host.
    public init(timeout: Duration = .seconds(5), trustRoots: [[UInt8]] = [],
                maximumConnectionsPerHost: Int = HTTPWebhookSender.defaultMaximumConnectionsPerHost) throws(WebhookSenderError) {
        self.timeout = timeout
        self.maximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
        var tls = TLSConfiguration.makeClientConfiguration()
        if !trustRoots.isEmpty {
            do {
                let certificates = try trustRoots.flatMap { bytes -> [NIOSSLCertificate] in
                    bytes.starts(with: Array("-----BEGIN".utf8))
                        ? try NIOSSLCertificate.fromPEMBytes(bytes)
                        : [try NIOSSLCertificate(bytes: bytes, format: .der)]
                }
                tls.additionalTrustRoots = [.certificates(certificates)]
            } catch {
                throw WebhookSenderError(code: .invalidTrustRoots, description: "the trust roots are not PEM or DER certificates: \(error)")
            }
        }
        timeoutAmount = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .follow(max: 5, allowCycles: false),
            timeout: .init(connect: timeoutAmount, read: timeoutAmount))
        // One attempt is one try: a refused connection is NO_RESPONSE at once, and the
        // retry schedule (Apple's hours, not the client's back-off) decides what comes next.
        configuration.connectionPool.retryConnectionEstablishment = false
        // AsyncHTTPClient's default is 8: a courier sending 16 at once made half of them wait
        // for a connection, their deadline running (8 of 20 TIMED_OUT on a webhook answering in 3 s of 5).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = self.maximumConnectionsPerHost
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    deinit {
        // Not waited for: a sender dropped without `shutdown()` still lets its connections go.
        client.shutdown(queue: .global()) { _ in }
    }

    /// Closes the connections and waits until they are; the sender sends nothing after.
    public func shutdown() async {
        try? await client.shutdown()
    }

    public func post(_ body: [UInt8], to url: String) async -> WebhookOutcome {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "App Store Server Notifications (Receipt Forge)")
        request.body = .bytes(body)
        do {
            let response = try await client.execute(request, deadline: .now() + timeoutAmount)
            // Read (and drop) the answer so the connection can be reused; too long a body is no
            // failure, the reading just stops. Counted, not collected: `collect` would grow in
            // place a buffer the event loop allocated (see ForgeServer's `RequestBody.bytes`).
            var read = 0
            for try await fragment in response.body {
                read += fragment.readableBytes
                if read > Self.maximumResponseBody { break }
            }
            let status = Int(response.status.code)
            return WebhookOutcome(result: SendAttemptResult.forStatus(status), detail: "HTTP \(status)")
        } catch {
            return Self.outcome(of: error)
        }
    }

    /// Apple's word for an error of the HTTP client.
    static func outcome(of error: any Error) -> WebhookOutcome {
        let detail = String(describing: error)
        let result: SendAttemptResult
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout:
                result = .timedOut
            case .redirectCycleDetected, .redirectLimitReached:
                result = .circularRedirect
            case .remoteConnectionClosed:
                result = .prematureClose
            default:
                result = .other
            }
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            result = .tlsIssue
        case is HTTPParserError:
            result = .invalidResponse
        case is NIOConnectionError, is SocketAddressError:
            result = .noResponse
        case let error as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode):
            result = .noResponse
        // A webhook that closes its socket with the request still unread makes the kernel
        // answer with a reset instead of an orderly close: the same premature close.
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            result = .prematureClose
        case is IOError, is ChannelError:
            result = .socketIssue
        default:
            result = .other
        }
        return WebhookOutcome(result: result, detail: detail)
    }
}

/// Why an `HTTPWebhookSender` cannot be made.
public struct WebhookSenderError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A trust root is neither a PEM nor a DER certificate.
        case invalidTrustRoots
    }

    public let code: Code
    public let description: String
}
