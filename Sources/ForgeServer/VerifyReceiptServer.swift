import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import StoreControlAPI
import StoreServerAPI
import UnixSignals

/// `forge serve`: a verifyReceipt look-alike and the App Store Server API on Hummingbird 2. Runs until SIGTERM or
/// SIGINT (or until the task running it is cancelled, or a surrounding `ServiceGroup`
/// shuts down gracefully), then stops accepting connections, finishes the requests in
/// flight and returns.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
public struct VerifyReceiptServer: Sendable {
    public let options: ServeOptions
    public let logger: Logger

    public init(options: ServeOptions, logger: Logger) {
        self.options = options
        self.logger = logger
    }

    /// The Hummingbird application: a `Service` to run in a `ServiceGroup`.
    /// `onRunning` gets the port the server listens on (useful with port 0).
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some Service {
        let serverAPI = ServerAPIHandler(stores: options.stores, authentication: options.serverAPIAuthentication,
                                         wallClock: options.clock, rateLimits: options.rateLimits)
        let stores = options.stores
        let control = StoreControlHandler(stores: [.production: stores.production, .sandbox: stores.sandbox])
        let responder = VerifyReceiptResponder(service: VerifyReceiptService(options: options), serverAPI: serverAPI, control: control,
                                               faults: options.faults,
                                               maximumBodySize: options.maximumBodySize, readTimeout: options.readTimeout,
                                               requestReceived: options.requestReceived, logger: logger)
        let timeout = TimeAmount(options.readTimeout)
        return Application(
            responder: responder,
            server: .http1(configuration: .init(idleTimeout: timeout)),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "forge-serve"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Runs until one of `signals` (SIGTERM, SIGINT) arrives, then shuts down gracefully.
    public func run(gracefulShutdownSignals signals: [UnixSignal] = [.sigterm, .sigint],
                    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let group = ServiceGroup(configuration: .init(services: [application(onRunning: onRunning)],
                                                      gracefulShutdownSignals: signals, logger: logger))
        try await group.run()
    }
}
