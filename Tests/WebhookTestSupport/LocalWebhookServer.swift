import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird router served on 127.0.0.1 (an ephemeral port) for as long as a test's
/// `body` runs: the scaffolding the webhooks of the notification tests share. The server
/// is stopped (gracefully: requests in flight finish) whether `body` returns or throws;
/// `beforeStop` runs first, so a webhook can release the requests it holds.
@available(macOS 14, iOS 17, tvOS 17, *)  // Hummingbird 2
public enum LocalWebhookServer {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func with<T: Sendable>(_ router: Router<BasicRequestContext>, label: String,
                                         beforeStop: @Sendable () -> Void = {},
                                         _ body: (_ baseURL: String) async throws -> T) async throws -> T {
        let ports = AsyncStream<Int>.makeStream()
        var logger = Logger(label: label)
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in ports.continuation.yield(channel.localAddress?.port ?? 0) },
                              logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await group.run() }
        func stop() async {
            beforeStop()
            await group.triggerGracefulShutdown()
            _ = await running.result
        }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await stop()
            throw Failure(description: "\(label) never reported its port")
        }
        do {
            let result = try await body("http://127.0.0.1:\(port)")
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }
}
