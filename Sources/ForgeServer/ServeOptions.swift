import AppInput
import Foundation
import ForgeCA
import ForgeSupport
import LocalAppStore
import ReceiptVerifier
import StoreServerAPI

/// Everything `forge serve` is configured with.
package struct ServeOptions: Sendable {
    /// The address to bind: `127.0.0.1` by default (loopback only).
    package var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (reported by `ForgeServeServer.run`'s `onRunning`).
    package var port = 8080
    /// `--tls-port`: a second listener on `host` that speaks HTTPS (HTTP/2 or HTTP/1.1 by
    /// ALPN) with this certificate chain and key; nil: plain HTTP only.
    package var tls: TLSListener?
    /// `--journal-size`: how many of the last requests `GET /forge/v1/requests` keeps.
    package var journalCapacity = 1_000
    /// App Store trust anchors (`--root`): the committed test CA by default.
    package var roots: [Certificate]
    /// StoreKit-testing certificates (`--xcode-root`): Certs/storekit.cer by default.
    package var xcodeRoots: [Certificate]
    /// `--shared-secret`: a `password` that differs is 21004 (for receipts with
    /// auto-renewable subscriptions). Nil: any password is accepted.
    package var sharedSecret: String?
    /// `--faults`: random faults for verifyReceipt and the Server API; nil: none (the
    /// `X-Forge-Fault` header works either way).
    package var faults: FaultPlan?
    /// `--rate-limits`: the Server API's per-endpoint limits, counted on `clock`; nil: none.
    package var rateLimits: ServerAPIRateLimits?
    /// `--accept-xcode`: receipts signed by an Xcode anchor are 0 with environment `Xcode`,
    /// not 21002.
    package var acceptXcode = false
    /// Request bodies larger than this get HTTP 413 without being read whole.
    package var maximumBodySize = 1 << 20
    /// How long a client may take to send its request (head and body), and how long an
    /// idle keep-alive connection stays open.
    package var readTimeout: Duration = .seconds(10)
    /// The time of a request (`request_date`), and the wall clock Server API tokens are
    /// checked against, rate limits count on and `Retry-After` is written from (the
    /// store keeps its own clock).
    package var clock: @Sendable () -> Date = { Date() }
    /// The App Store Server API's stores, production (`http://HOST:PORT/inApps/…`) and
    /// sandbox (`http://HOST:PORT/sandbox/inApps/…`): the default population of the
    /// example app. Shared by reference, so the embedding code (a test) can drive them.
    package var stores = LocalAppStores()
    /// How the Server API checks bearer tokens: by default it accepts the forge's test
    /// key of the default seed (`api-key/` of a `forge --all` tree) for the stores' app.
    package var serverAPIAuthentication = ServerAPIAuthentication.testKey(seed: DeterministicRandom.defaultSeed,
                                                                          bundleIdentifier: LocalAppStores.defaultBundleIdentifier)
    /// `--notify-url`: the webhook of each environment, sent every notification of its
    /// store (production with Apple's retries, the sandbox once). An environment without
    /// one records its notifications (Get Notification History) and sends nothing.
    package var notifyURLs: [AppEnvironment: String] = [:]
    /// `--notify-timeout`: how long one attempt may take, connecting to the last byte
    /// of the answer (Apple documents none; its engineers ask for an answer within a
    /// few seconds).
    package var notifyTimeout: Duration = .seconds(5)
    /// `--notify-ca`: DER certificates an https webhook's chain may end at, besides the system's.
    package var notifyTrustRoots: [[UInt8]] = []
    /// Attempts made at once per environment: a slow webhook holds at most this many.
    package var notifyConcurrency = 16
    /// At a time rate, how often (real time) the clocks are looked at for events and
    /// retries that fell due without a request.
    package var notifyClockTick: Duration = .milliseconds(100)
    /// Awaited once a verifyReceipt request's body has been read, before its answer is
    /// made (and before a `delay-MS` fault waits): the embedding code sees requests in
    /// flight, as a test does that shuts the server down while it holds one.
    package var requestReceived: @Sendable (VerifyReceiptEndpoint) async -> Void = { _ in }

    package init(roots: [Certificate] = [ServeOptions.committedRoot], xcodeRoots: [Certificate] = [ServeOptions.committedStoreKit]) {
        self.roots = roots
        self.xcodeRoots = xcodeRoots
    }

    /// Certs/root.cer, the committed test CA the forge's App Store receipts chain to.
    package static let committedRoot = committed(ReceiptAuthority.committed.root.certificate)
    /// Certs/storekit.cer, the committed "StoreKit Testing" certificate of Xcode-style receipts.
    package static let committedStoreKit = committed(ReceiptAuthority.committed.storeKit.certificate)

    private static func committed(_ der: [UInt8]) -> Certificate {
        do {
            return try Certificate(der, rules: .der)
        } catch {
            fatalError("the committed test CA does not parse (ForgeTests keep it parsing): \(error)")
        }
    }
}

/// The HTTPS listener of `forge serve --tls-port`: its port (0: any free one) and the
/// server certificate chain and key in PEM (`LocalTLSAuthority`'s `server.pem` and
/// `server.key.pem`).
package struct TLSListener: Sendable {
    package var port: Int
    package var certificateChainPEM: String
    package var privateKeyPEM: String

    package init(port: Int, certificateChainPEM: String, privateKeyPEM: String) {
        self.port = port
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }
}
