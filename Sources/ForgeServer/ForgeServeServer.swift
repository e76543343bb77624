import HTTPWebhook
import Hummingbird
import HummingbirdHTTP2
import LocalAppStore
import Logging
import NIOCore
import NIOSSL
import NotificationDelivery
import ServiceLifecycle
import StoreControlAPI
import StoreNotifications
import StoreServerAPI
import UnixSignals

/// `forge serve` on Hummingbird 2: all four surfaces of `ForgeServeResponder` (verifyReceipt,
/// the App Store Server API, the control API, `/health`) and the courier of Server
/// Notifications V2. Runs until SIGTERM or SIGINT (or until the task running it is
/// cancelled, or a surrounding `ServiceGroup` shuts down gracefully), then stops
/// accepting connections, finishes the requests in flight and returns.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
package struct ForgeServeServer: Sendable {
    package let options: ServeOptions
    package let logger: Logger
    /// Both stores' Server Notifications V2 (they own the stores' events from here on):
    /// what Get Notification History reads and the courier sends.
    package let notifications: ServerNotifications
    /// The last requests both listeners answered (`GET /forge/v1/requests`).
    let journal: RequestJournal

    /// Throws `.storeHasAnEventConsumer` when `options.stores` have notification channels
    /// already (the embedding code made its own): a store's events have one owner.
    package init(options: ServeOptions, logger: Logger) throws(EventFeedError) {
        self.options = options
        self.logger = logger
        notifications = try ServerNotifications(stores: options.stores, urls: options.notifyURLs)
        journal = RequestJournal(capacity: options.journalCapacity)
    }

    /// The services to run in a `ServiceGroup`: the Hummingbird application (and its
    /// HTTPS twin with `options.tls`) and the notification courier. `onRunning` gets the
    /// port the server listens on (useful with port 0), `onTLSRunning` the HTTPS port.
    /// Throws when `notifyTrustRoots` holds something that is no certificate, or the TLS
    /// chain or key does not load.
    package func services(onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
                          onTLSRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> [any Service] {
        // Each environment's courier sends up to notifyConcurrency at once, perhaps to the same
        // host: no attempt waits for a connection (its timeout would run meanwhile).
        let sender = try HTTPWebhookSender(timeout: options.notifyTimeout, trustRoots: options.notifyTrustRoots,
                                           maximumConnectionsPerHost: options.notifyConcurrency * max(1, options.notifyURLs.count))
        let courier = NotificationCourierService(
            notifications: notifications, sender: sender, maximumConcurrentAttempts: options.notifyConcurrency,
            clockTick: options.stores.production.clock == nil ? nil : options.notifyClockTick,
            shutdownSender: { await sender.shutdown() }, logger: logger)
        var services: [any Service] = [application(onRunning: onRunning), courier]
        if let tls = options.tls {
            services.append(try tlsApplication(tls, onRunning: onTLSRunning))
        }
        return services
    }

    /// The Hummingbird application alone (no notification is sent without the courier
    /// of `services`). `onRunning` gets the port the server listens on (useful with port 0).
    package func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        let timeout = TimeAmount(options.readTimeout)
        return Application(
            responder: responder(),
            server: .http1(configuration: .init(idleTimeout: timeout)),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "forge-serve"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// The HTTPS listener: the same answers as `application`, over TLS with HTTP/2 or
    /// HTTP/1.1 (ALPN), routed by host name as well (`AppleHosts`).
    package func tlsApplication(_ tls: TLSListener, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some Service {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(tls.certificateChainPEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(tls.privateKeyPEM.utf8), format: .pem)
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        return Application(
            responder: HostRoutedResponder(inner: responder()),
            server: try .http2Upgrade(tlsConfiguration: configuration,
                                      configuration: .init(idleTimeout: options.readTimeout)),
            configuration: .init(address: .hostname(options.host, port: tls.port), serverName: "forge-serve"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    private func responder() -> ForgeServeResponder {
        let serverAPI = ServerAPIHandler(stores: options.stores, authentication: options.serverAPIAuthentication,
                                         wallClock: options.clock, rateLimits: options.rateLimits, notifications: notifications)
        let stores = options.stores
        let control = StoreControlHandler(stores: [.production: stores.production, .sandbox: stores.sandbox])
        return ForgeServeResponder(service: VerifyReceiptService(options: options), serverAPI: serverAPI, control: control,
                                   faults: options.faults,
                                   maximumBodySize: options.maximumBodySize, readTimeout: options.readTimeout,
                                   requestReceived: options.requestReceived, logger: logger, journal: journal)
    }

    /// Runs until one of `signals` (SIGTERM, SIGINT) arrives, then shuts down gracefully.
    package func run(gracefulShutdownSignals signals: [UnixSignal] = [.sigterm, .sigint],
                    onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
                    onTLSRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let group = ServiceGroup(configuration: .init(services: try services(onRunning: onRunning, onTLSRunning: onTLSRunning),
                                                      gracefulShutdownSignals: signals, logger: logger))
        try await group.run()
    }
}
