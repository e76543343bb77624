import Foundation
import LocalAppStore
import NotificationDelivery

/// The line `forge notify` and `forge scenario run --notify` print for each attempt:
/// store time, notification UUID, attempt number, TYPE/SUBTYPE, Apple's result word and
/// what the forge saw.
enum NotificationAttemptLine {
    static func text(_ report: NotificationCourier.Report) -> String {
        let date = Date(timeIntervalSince1970: Double(report.attemptDate) / 1_000)
        var line = "\(ISO8601DateFormatter().string(from: date)) \(report.notificationUUID) attempt \(report.attempt) \(report.typeAndSubtype): "
            + "\(report.outcome.result.rawValue) (\(report.outcome.detail))"
        if let next = report.nextAttemptDate {
            line += ", next attempt at \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(next) / 1_000)))"
        }
        return line
    }
}
