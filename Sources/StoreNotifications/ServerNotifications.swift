import AppInput
import LocalAppStore

/// The notification channels of a server's two stores: production's sends to its URL
/// with Apple's retries, the sandbox's to its own, once.
public struct ServerNotifications: Sendable {
    public let production: NotificationChannel
    public let sandbox: NotificationChannel

    /// Channels for `stores` (whose event feeds they start), sending to `urls` (an
    /// environment without one records its notifications and sends nothing).
    public init(stores: LocalAppStores, urls: [AppEnvironment: String] = [:]) {
        production = NotificationChannel(store: stores.production, url: urls[.production])
        sandbox = NotificationChannel(store: stores.sandbox, url: urls[.sandbox])
    }

    public func channel(_ environment: AppEnvironment) -> NotificationChannel {
        environment == .production ? production : sandbox
    }

    public var channels: [NotificationChannel] { [production, sandbox] }

    /// Queues the notifications of both stores' new events (`NotificationChannel.collect`).
    @discardableResult
    public func collect() -> Int {
        production.collect() + sandbox.collect()
    }

    /// Wakes both couriers: after a clock move, retries may be due though nothing was queued.
    public func wake() {
        production.wake()
        sandbox.wake()
    }
}
