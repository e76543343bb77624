import AppInput
import ForgeCommandLine
import Foundation
import HTTPWebhook
import LocalAppStore
import NotificationDelivery
import StoreNotifications
import StoreScenarios

/// `forge scenario run --notify URL`: each step's notifications queued in an outbox with
/// Apple's retry schedule and sent with the HTTP sender the server uses; an attempt is
/// made when the scenario's store clock reaches it. Network code: kept out of the
/// StoreScenarios library.
final class ScenarioWebhookObserver: ScenarioNotificationObserver {
    private let outbox: NotificationOutbox
    private let courier: NotificationCourier
    private let sender: HTTPWebhookSender
    private let kinds: KindBook

    init(url: String, environment: AppEnvironment, timeout: Duration = .seconds(5)) throws {
        sender = try HTTPWebhookSender(timeout: timeout)
        outbox = NotificationOutbox(schedule: RetrySchedule.of(environment))
        // One at a time, so the webhook sees the notifications in the order they happened.
        courier = NotificationCourier(outbox: outbox, sender: sender, url: url, maximumConcurrentAttempts: 1)
        kinds = KindBook()
    }

    func stepFinished(notifications: [SignedNotification], storeInstant: StoreInstant) async -> [ScenarioAttemptReport] {
        for notification in notifications {
            kinds.set(notification.kind.description, for: notification.notificationUUID)
            // A run signs each UUID once (the scenario reader refuses resets).
            try? outbox.enqueue(OutgoingNotification(notificationUUID: notification.notificationUUID,
                                                     signedPayload: notification.signedPayload), at: notification.signedDate)
        }
        return report(await courier.deliverDue(upTo: storeInstant))
    }

    func runFinished() async -> [ScenarioAttemptReport] {
        report(await courier.deliverDue(upTo: .max))
    }

    func shutdown() async {
        await sender.shutdown()
    }

    private func report(_ reports: [NotificationCourier.Report]) -> [ScenarioAttemptReport] {
        reports.map { report in
            printError(NotificationAttemptLine.text(report, kind: kinds.kind(of: report.notificationUUID)))
            return ScenarioAttemptReport(notificationUUID: report.notificationUUID, attempt: .init(
                attempt: report.attempt, attemptDate: report.attemptDate, sendAttemptResult: report.outcome.result.rawValue,
                detail: report.outcome.detail))
        }
    }
}

/// Which TYPE/SUBTYPE each queued notification is, for the attempt lines.
final class KindBook: @unchecked Sendable {
    // @unchecked: `kinds` is only touched with `lock` held.
    private let lock = NSLock()
    private var kinds: [String: String] = [:]

    func set(_ kind: String, for uuid: String) {
        lock.lock()
        defer { lock.unlock() }
        kinds[uuid] = kind
    }

    func kind(of uuid: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        return kinds[uuid] ?? "?"
    }
}
