import AppInput
import LocalAppStore

/// The notification channels of a server's two stores: production's sends to its URL
/// with Apple's retries, the sandbox's to its own, once.
public struct ServerNotifications: Sendable {
    public let production: NotificationChannel
    public let sandbox: NotificationChannel

    /// Channels for `stores` (whose events they own from now on: every write's
    /// notifications are queued as it returns, whoever made it), sending to `urls` (an
    /// environment without one records its notifications and sends nothing).
    /// `.storeHasAnEventConsumer` when a store has a channel already: share that one.
    public init(stores: LocalAppStores, urls: [AppEnvironment: String] = [:]) throws(EventFeedError) {
        production = try NotificationChannel(store: stores.production, url: urls[.production])
        sandbox = try NotificationChannel(store: stores.sandbox, url: urls[.sandbox])
    }

    public func channel(_ environment: AppEnvironment) -> NotificationChannel {
        environment == .production ? production : sandbox
    }

    public var channels: [NotificationChannel] { [production, sandbox] }

    /// Catches both stores' clocks up and queues what that recorded (`NotificationChannel.catchUp`).
    @discardableResult
    public func catchUp() -> Int {
        production.catchUp() + sandbox.catchUp()
    }

    /// Wakes both couriers: after a clock move, retries may be due though nothing was queued.
    public func wake() {
        production.wake()
        sandbox.wake()
    }
}
