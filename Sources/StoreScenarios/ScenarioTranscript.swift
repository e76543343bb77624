import LocalAppStore
import StrictJSON

/// What a scenario run did, step by step: the record a webhook handler's tests use as
/// fixtures without running anything. Byte-identical for the same scenario, seed and
/// environment (`Schemas/scenario-transcript.schema.json`).
public struct ScenarioTranscript: Sendable, Hashable, Encodable {
    public static let formatVersion = 1

    public let formatVersion = ScenarioTranscript.formatVersion
    public let scenario: String
    public let summary: String
    public let environment: String
    public let seed: UInt64
    public let customer: String
    public let bundleId: String
    /// The store's clock before the first step (milliseconds since 1970).
    public let start: StoreInstant
    public internal(set) var steps: [Step]
    /// Every notification's `TYPE` or `TYPE/SUBTYPE`, in order.
    public var notificationSequence: [String] { steps.flatMap { $0.notifications.map(\.kind) } }

    private enum CodingKeys: String, CodingKey {
        case formatVersion, scenario, summary, environment, seed, customer, bundleId, start, steps, notificationSequence
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(summary, forKey: .summary)
        try container.encode(environment, forKey: .environment)
        try container.encode(seed, forKey: .seed)
        try container.encode(customer, forKey: .customer)
        try container.encode(bundleId, forKey: .bundleId)
        try container.encode(start, forKey: .start)
        try container.encode(steps, forKey: .steps)
        try container.encode(notificationSequence, forKey: .notificationSequence)
    }

    public struct Step: Sendable, Hashable, Encodable {
        /// 1, 2, …
        public let index: Int
        public let note: String?
        /// The step as run: references replaced by the ids they named.
        package let action: JSONValue
        /// The store's clock after the step.
        public let storeInstant: StoreInstant
        /// The answer: the control API's (`StoreActionResult`), the Server API's body (and status), or, for requestTestNotification, the TEST notification's notificationUUID.
        package let answer: JSONValue
        public internal(set) var notifications: [Notification]
        /// What the Server API answers for the customer after the step (nil before the customer bought anything).
        public let serverAPI: ServerAPIAnswers?
        /// The customer's app receipt at `storeInstant`, base64 (`receipt-data`), nil before the customer exists.
        public let receipt: String?
    }

    public struct Notification: Sendable, Hashable, Encodable {
        public let notificationUUID: String
        /// `TYPE` or `TYPE/SUBTYPE`.
        public let kind: String
        public let notificationType: String
        public let subtype: String?
        public let signedDate: StoreInstant
        /// The store event it reports (`StoreEvent.sequence`); nil for TEST.
        public let eventSequence: Int?
        /// The POST body, `{"signedPayload": …}`'s JWS.
        public let signedPayload: String
        /// The JWS's payload as signed.
        package let payload: JSONValue
        /// `data.signedTransactionInfo`'s payload as signed, if any.
        package let transactionInfo: JSONValue?
        /// `data.signedRenewalInfo`'s payload as signed, if any.
        package let renewalInfo: JSONValue?
        /// Attempts to deliver it (`scenario run --notify`); empty when nothing was sent.
        public internal(set) var deliveryAttempts: [DeliveryAttempt]
    }

    /// One POST of a notification to the webhook.
    public struct DeliveryAttempt: Sendable, Hashable, Encodable {
        public let attempt: Int
        /// Store time the attempt was made at.
        public let attemptDate: StoreInstant
        /// Apple's `sendAttemptResult` word.
        public let sendAttemptResult: String
        public let detail: String

        public init(attempt: Int, attemptDate: StoreInstant, sendAttemptResult: String, detail: String) {
            self.attempt = attempt
            self.attemptDate = attemptDate
            self.sendAttemptResult = sendAttemptResult
            self.detail = detail
        }
    }

    /// Get All Subscription Statuses and every page of Get Transaction History (v2) for
    /// the customer's first transaction, as the Server API's handler answers them.
    public struct ServerAPIAnswers: Sendable, Hashable, Encodable {
        package let subscriptionStatuses: JSONValue
        package let transactionHistory: [JSONValue]
    }
}
