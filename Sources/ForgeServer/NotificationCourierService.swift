import Logging
import NotificationDelivery
import ServiceLifecycle
import StoreNotifications
import StoreServerAPI

/// `forge serve`'s notification sender, a service of the server's group: for each
/// environment with a URL, a courier that waits to be woken (notifications queued, the
/// clock moved: `NotificationChannel.wakeUps`) and makes every attempt due at the
/// store's instant, at most `maximumConcurrentAttempts` at once in a sliding window
/// (`NotificationCourier.deliver`), each bounded by the sender's timeout. Requests never wait for it. At a time rate the stores' clocks move
/// without requests, so a ticker looks at them every `clockTick` (the events the clock
/// brought are queued as it catches up; the loops are woken for retries it made due).
/// Writes need nothing from here: the store tells its channel, which wakes the loop.
///
/// On graceful shutdown the couriers start no attempt and stop once those in flight end
/// (at most a timeout), however many attempts are due.
struct NotificationCourierService: Service {
    let notifications: ServerNotifications
    let sender: any WebhookSender
    let maximumConcurrentAttempts: Int
    /// nil: the clocks move only by requests (advanceClock), which wake the loops themselves.
    let clockTick: Duration?
    /// Closes the sender's connections once the loops have stopped.
    let shutdownSender: @Sendable () async -> Void
    let logger: Logger

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for channel in notifications.channels {
                    guard let url = channel.url else { continue }
                    let courier = NotificationCourier(outbox: channel.outbox, sender: sender, url: url,
                                                      maximumConcurrentAttempts: maximumConcurrentAttempts)
                    // Cancelled on shutdown, so a backlog starts no more attempts (NotificationCourier.deliver).
                    group.addTask { await cancelWhenGracefulShutdown { await deliver(channel, courier) } }
                }
                if let clockTick {
                    group.addTask { await tick(every: clockTick) }
                }
                // A service that returns ends the group: run until shutdown even with nothing to send.
                group.addTask { try? await gracefulShutdown() }
                await group.waitForAll()
            }
        } onGracefulShutdown: {
            for channel in notifications.channels { channel.finish() }
        }
        await shutdownSender()
    }

    private func deliver(_ channel: NotificationChannel, _ courier: NotificationCourier) async {
        let environment = channel.environment.rawValue.lowercased()
        // Reading the store's instant catches its clock up, which queues what that recorded.
        await courier.deliver(wakeUps: channel.wakeUps, now: { channel.now }) { report in
            let next = report.nextAttemptDate.map { ", next attempt at \($0)" } ?? ""
            let line = "notify \(environment) \(report.notificationUUID) attempt \(report.attempt) at \(report.attemptDate): "
                + "\(report.outcome.result.rawValue) (\(report.outcome.detail))\(next)"
            logger.info("\(line)")
        }
    }

    /// Wakes the loops as the clocks run, until shutdown.
    private func tick(every interval: Duration) async {
        while !Task.isShuttingDownGracefully {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            notifications.catchUp()
            notifications.wake()
        }
    }
}
