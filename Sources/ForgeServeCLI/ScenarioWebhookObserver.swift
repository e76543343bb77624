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

    init(url: String, environment: AppEnvironment, timeout: Duration = .seconds(5)) throws {
        sender = try HTTPWebhookSender(timeout: timeout)
        outbox = NotificationOutbox(schedule: RetrySchedule.of(environment))
        // One at a time, so the webhook sees the notifications in the order they happened.
        courier = NotificationCourier(outbox: outbox, sender: sender, url: url, maximumConcurrentAttempts: 1)
    }

    func stepFinished(notifications: [SignedNotification], storeInstant: StoreInstant) async -> [ScenarioAttemptReport] {
        for notification in notifications {
            // A run signs each UUID once (the scenario reader refuses resets).
            try? outbox.enqueue(OutgoingNotification(notificationUUID: notification.notificationUUID, typeAndSubtype: notification.kind.description,
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
            printError(NotificationAttemptLine.text(report))
            return ScenarioAttemptReport(notificationUUID: report.notificationUUID, attempt: .init(
                attempt: report.attempt, attemptDate: report.attemptDate, sendAttemptResult: report.outcome.result.rawValue,
                detail: report.outcome.detail))
        }
    }
}
