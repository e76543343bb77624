import LocalAppStore
import StoreNotifications
import StrictJSON

/// A lifecycle as a script: store actions in order, for one customer, and the
/// notifications Apple would send for them. A step is a control API action (its verb
/// and body exactly as `POST /forge/v1/VERB` takes them, `advanceClock` included), a
/// Server API call (method, path and body as `/inApps/…` takes them), or Request a Test
/// Notification. Schema: `Schemas/scenario.schema.json`.
///
/// ```json
/// {"name": "refund", "summary": "…", "customer": "alice",
///  "steps": [{"control": "buyProduct", "body": {"customer": "alice", "productId": "…"}, "as": "purchase"},
///            {"control": "refundTransaction", "body": {"transactionId": "${purchase.transactionIds[0]}", "reason": 0}}],
///  "expectedNotifications": ["ONE_TIME_CHARGE", "REFUND"]}
/// ```
///
/// A string in a body or path may name what an earlier step made, `${as.member}`
/// (`ScenarioReference`): ids are the store's to choose, a script names them by step.
public struct Scenario: Sendable, Hashable {
    public let name: String
    /// One line: what the lifecycle shows.
    public let summary: String
    /// Whose statuses, history and receipt the transcript records after each step.
    public let customer: String
    public let steps: [ScenarioStep]
    /// `TYPE` or `TYPE/SUBTYPE`, in the order the store emits them; nil when the script
    /// does not say (a user's file may leave it out).
    public let expectedNotifications: [NotificationKind]?
}

/// One action of a scenario.
public struct ScenarioStep: Sendable, Hashable {
    package enum Action: Sendable, Hashable {
        /// A control API verb and its body (`ControlAction`).
        case control(verb: String, body: JSONValue)
        /// A Server API request: `method`, `path` (`/inApps/…`, without the sandbox prefix: the
        /// scenario's environment chooses the store) and an optional JSON body.
        case serverAPI(method: String, path: String, body: JSONValue?)
        /// Request a Test Notification: the TEST notification.
        case requestTestNotification
    }

    package let action: Action
    /// The name later steps refer to this step's ids by (`${name.originalTransactionId}`).
    public let binding: String?
    /// A line for people reading the transcript.
    public let note: String?
    /// Where the step is in its script (`$.steps[3]`), for errors at run time.
    public let location: String
}

extension NotificationKind {
    /// `TYPE` or `TYPE/SUBTYPE`, as `description` writes it; nil for names the forge does not send.
    init?(text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let type = NotificationType(rawValue: parts[0]) else { return nil }
        if parts.count == 2 {
            guard let subtype = NotificationSubtype(rawValue: parts[1]) else { return nil }
            self.init(type, subtype)
        } else {
            self.init(type)
        }
    }
}
