import AppInput
import Foundation
import LocalAppStore
import NotificationDelivery
import StoreNotifications

/// Get Notification History's request (Apple's `NotificationHistoryRequest`) checked
/// as Apple checks it: `startDate` and `endDate` required (4000015, 4000016), start
/// before end (4000013) and not further back than the environment's history reaches
/// (180 days in production, 30 in the sandbox: 4000012); `notificationType` and
/// `notificationSubtype` Apple's words, and a subtype only with its type (4000018);
/// `transactionId` and `notificationType` not both (4000019); `transactionId` any
/// transaction of the customer whose notifications are wanted (4000006, 4040010).
/// A notification is in the span when its `signedDate` is: start ≤ date < end.
struct NotificationHistoryQuery {
    var startDate: StoreInstant
    var endDate: StoreInstant
    var type: NotificationType?
    var subtype: NotificationSubtype?
    var transactionId: String?
    var onlyFailures: Bool

    /// How far back the history reaches: 180 days in production, 30 in the sandbox
    /// (`StoreRetention.notificationHistory`, which cites Apple's page; the outbox keeps
    /// records as long).
    static func maximumAge(in environment: AppEnvironment) -> Int64 {
        StoreRetention.notificationHistory(in: environment)
    }

    /// Records per page ("the next set of up to 20 notification history records").
    static let pageSize = 20

    /// The body as Apple's clients send it (every member optional so that each missing
    /// or bad one gets its own error).
    struct Body: Decodable {
        let startDate: Int64?
        let endDate: Int64?
        let notificationType: String?
        let notificationSubtype: String?
        let transactionId: String?
        let onlyFailures: Bool?
    }

    init(body: Body, now: StoreInstant, environment: AppEnvironment) throws(ServerAPIError) {
        guard let startDate = body.startDate, startDate >= 0 else {
            throw ServerAPIError(.invalidStartDate, "startDate is missing or negative (milliseconds since 1970)")
        }
        guard let endDate = body.endDate, endDate >= 0 else {
            throw ServerAPIError(.invalidEndDate, "endDate is missing or negative (milliseconds since 1970)")
        }
        guard startDate < endDate else {
            throw ServerAPIError(.startDateAfterEndDate, "startDate \(startDate) is not before endDate \(endDate)")
        }
        let maximumAge = Self.maximumAge(in: environment)
        guard startDate >= now - maximumAge else {
            throw ServerAPIError(.startDateTooFarInPast, "startDate \(startDate) is over \(maximumAge / StoreDuration.days(1)) days before "
                                   + "the store's now (\(now)): the \(environment.rawValue.lowercased()) history reaches no further back")
        }
        if body.transactionId != nil, body.notificationType != nil {
            throw ServerAPIError(.multipleFiltersSupplied, "transactionId and notificationType cannot be used together")
        }
        self.startDate = startDate
        self.endDate = endDate
        if let text = body.notificationType {
            guard let type = NotificationType(rawValue: text) else {
                throw ServerAPIError(.invalidNotificationType, "notificationType '\(text)' is not one the App Store sends")
            }
            self.type = type
        }
        if let text = body.notificationSubtype {
            // Apple's notificationSubtype field: "If you specify a notificationSubtype, you need to
            // also specify its related notificationType"
            // (https://developer.apple.com/documentation/appstoreserverapi/notificationsubtype).
            guard body.notificationType != nil else {
                throw ServerAPIError(.invalidNotificationType, "notificationSubtype '\(text)' needs its notificationType beside it")
            }
            guard let subtype = NotificationSubtype(rawValue: text) else {
                throw ServerAPIError(.invalidNotificationType, "notificationSubtype '\(text)' is not one the App Store sends")
            }
            self.subtype = subtype
        }
        transactionId = body.transactionId
        onlyFailures = body.onlyFailures ?? false
    }

    /// Whether `record` answers the query; `customerId` is the customer `transactionId` names.
    func includes(_ record: DeliveryRecord, customerId: String?) -> Bool {
        guard record.queuedDate >= startDate, record.queuedDate < endDate else { return false }
        if onlyFailures, record.isDelivered { return false }
        let kind: NotificationKind
        let customer: String?
        guard let source = record.notification.payloadSource else { return false }
        switch source {
        case let source as EventNotificationSource:
            kind = source.kind
            customer = source.event.customerId
        case is TestNotificationSource:
            kind = .test
            customer = nil
        default:
            return false
        }
        if let type, kind.type != type { return false }
        if let subtype, kind.subtype != subtype { return false }
        if let customerId, customer != customerId { return false }
        return true
    }
}
