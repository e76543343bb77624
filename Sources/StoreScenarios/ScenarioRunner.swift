import AppInput
import ForgeCA
import Foundation
import LocalAppStore
import StoreControlAPI
import StoreKit2
import StoreNotifications
import StoreServerAPI
import StrictJSON

/// Where a run's notifications go besides the transcript: `forge scenario run --notify`
/// posts them (that side lives with the network code, not here). Called after each
/// step with the step's notifications and the store's clock; answers every attempt it
/// made, retries of earlier notifications included.
public protocol ScenarioNotificationObserver: Sendable {
    func stepFinished(notifications: [SignedNotification], storeInstant: StoreInstant) async -> [ScenarioAttemptReport]
    /// After the last step: attempts still owed (retries due later) are made now.
    func runFinished() async -> [ScenarioAttemptReport]
}

/// One attempt an observer made, for the transcript.
public struct ScenarioAttemptReport: Sendable, Hashable {
    public let notificationUUID: String
    public let attempt: ScenarioTranscript.DeliveryAttempt

    public init(notificationUUID: String, attempt: ScenarioTranscript.DeliveryAttempt) {
        self.notificationUUID = notificationUUID
        self.attempt = attempt
    }
}

/// Runs a scenario on a fresh, empty store of one environment: each step through the
/// control API's `ControlAction` or the Server API's handler (the code `forge serve`
/// answers with), the events it added signed by `NotificationSigner`, then the Server
/// API's answers and the receipt for the scenario's customer.
public struct ScenarioRunner: Sendable {
    public let configuration: StoreConfiguration

    /// An empty store (no default population) of the example app in `environment`.
    public init(environment: AppEnvironment = .production, seed: UInt64 = StoreConfiguration().seed) {
        configuration = StoreConfiguration(environment: environment, seed: seed, customers: 0)
    }

    public init(configuration: StoreConfiguration) {
        self.configuration = configuration
    }

    public func run(_ scenario: Scenario, observer: (any ScenarioNotificationObserver)? = nil) async throws(ScenarioError) -> ScenarioTranscript {
        try await execute(scenario, observer: observer).transcript
    }

    /// Every notification the scenario makes, signed, in order (`forge notify`).
    public func notifications(of scenario: Scenario) async throws(ScenarioError) -> [SignedNotification] {
        try await execute(scenario, observer: nil).notifications
    }

    private func execute(_ scenario: Scenario, observer: (any ScenarioNotificationObserver)?) async throws(ScenarioError)
        -> (transcript: ScenarioTranscript, notifications: [SignedNotification]) {
        var allSigned: [SignedNotification] = []
        let stores = LocalAppStores(configuration)
        let store = stores.store(configuration.environment)
        let serverAPI = ServerAPIHandler(stores: stores, authentication: .disabled)
        let signer = NotificationSigner(configuration: configuration)
        let prefix = configuration.environment == .production ? "" : "/sandbox"
        var transcript = ScenarioTranscript(
            scenario: scenario.name, summary: scenario.summary, environment: configuration.environment.rawValue,
            seed: configuration.seed, customer: scenario.customer, bundleId: configuration.app.bundleIdentifier,
            start: store.read { $0.now }, steps: [])
        var bindings: [String: StoreActionResult] = [:]
        var anchorTransactionId: String?
        var testNotifications = 0
        var attempts: [ScenarioAttemptReport] = []

        for (offset, step) in scenario.steps.enumerated() {
            let resolve = { (reference: ScenarioReference) throws(ScenarioError) -> String in
                guard case .named(let name, let member) = reference, let result = bindings[name],
                      let value = ScenarioReference.value(of: member, in: result) else {
                    throw ScenarioError(.unresolvedReference, file: scenario.name, location: step.location,
                                        "\(reference) names nothing the step it refers to made")
                }
                return value
            }
            let eventsBefore = store.read { $0.eventCount }
            var signed: [SignedNotification] = []
            let action: JSONValue
            let answer: JSONValue
            switch step.action {
            case .control(let verbName, let body):
                guard let verb = ControlVerb(rawValue: verbName) else { preconditionFailure("the script reader checked the verb") }
                let resolved = try ScenarioReference.substitute(body, resolve)
                action = ["control": .string(verbName), "body": resolved]
                do throws(ControlError) {
                    let result = try ControlAction(verb, body: resolved.encoded).perform(on: store)
                    if let binding = step.binding { bindings[binding] = result }
                    answer = Self.json(StoreKit2JSON.encode(result))
                } catch {
                    throw ScenarioError(.stepRefused, file: scenario.name, location: step.location, error.description)
                }
            case .serverAPI(let method, let path, let body):
                let resolvedPath = try ScenarioReference.substitute(path, resolve)
                let resolvedBody = try body.map { value throws(ScenarioError) in try ScenarioReference.substitute(value, resolve) }
                var request: [JSONMember] = [JSONMember(key: "method", value: .string(method)), JSONMember(key: "path", value: .string(resolvedPath))]
                if let resolvedBody { request.append(JSONMember(key: "body", value: resolvedBody)) }
                action = .object([JSONMember(key: "serverAPI", value: .object(request))])
                let response = serverAPI.respond(to: ServerAPIRequest(method: method, path: prefix + resolvedPath, body: resolvedBody?.encoded ?? []))
                guard (200...299).contains(response.status) else {
                    throw ScenarioError(.stepRefused, file: scenario.name, location: step.location,
                                        "the Server API answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
                }
                answer = ["status": .number(String(response.status)), "body": response.body.isEmpty ? .null : Self.json(response.body)]
            case .requestTestNotification:
                testNotifications += 1
                action = ["requestTestNotification": .object([])]
                let now = store.read { $0.now }
                do throws(KeyError) {
                    signed.append(try signer.testNotification(number: testNotifications, at: now))
                } catch {
                    throw ScenarioError(.signingFailed, file: scenario.name, location: step.location, "\(error)")
                }
                answer = ["notificationUUID": .string(signed[0].notificationUUID)]
            }

            let (events, now) = store.read { state in (Array(state.events(since: eventsBefore)), state.now) }
            do throws(KeyError) {
                signed = try signer.notifications(for: events) + signed
            } catch {
                throw ScenarioError(.signingFailed, file: scenario.name, location: step.location, "\(error)")
            }
            allSigned += signed
            if anchorTransactionId == nil {
                anchorTransactionId = events.first { $0.customerId == scenario.customer && $0.transactionId != nil }?.transactionId
            }
            if let observer {
                attempts += await observer.stepFinished(notifications: signed, storeInstant: now)
            }
            transcript.steps.append(ScenarioTranscript.Step(
                index: offset + 1, note: step.note, action: action, storeInstant: now, answer: answer,
                notifications: signed.map(Self.record), serverAPI: anchorTransactionId.map { answers(serverAPI, prefix: prefix, transactionId: $0) },
                receipt: anchorTransactionId == nil ? nil : try? Data(store.receipt(customer: scenario.customer).receipt ?? []).base64EncodedString()))
        }
        if let observer {
            attempts += await observer.runFinished()
        }
        if !attempts.isEmpty {
            let byUUID = Dictionary(grouping: attempts, by: \.notificationUUID)
            for step in transcript.steps.indices {
                for notification in transcript.steps[step].notifications.indices {
                    let uuid = transcript.steps[step].notifications[notification].notificationUUID
                    transcript.steps[step].notifications[notification].deliveryAttempts = (byUUID[uuid] ?? []).map(\.attempt)
                }
            }
        }
        return (transcript, allSigned)
    }

    /// The transcript as written to disk: sorted keys, two-space indentation, a final newline.
    public static func encode(_ transcript: ScenarioTranscript) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain Codable data: encoding cannot fail.
        return Array(try! encoder.encode(transcript)) + [UInt8(ascii: "\n")]
    }

    // MARK: Parts

    private func answers(_ handler: ServerAPIHandler, prefix: String, transactionId: String) -> ScenarioTranscript.ServerAPIAnswers {
        let statuses = handler.respond(to: ServerAPIRequest(method: "GET", path: "\(prefix)/inApps/v1/subscriptions/\(transactionId)"))
        var pages: [JSONValue] = []
        var revision: String?
        repeat {
            let query = revision.map { [ServerAPIRequest.QueryItem("revision", $0)] } ?? []
            let page = Self.json(handler.respond(to: ServerAPIRequest(method: "GET", path: "\(prefix)/inApps/v2/history/\(transactionId)", query: query)).body)
            pages.append(page)
            revision = page["hasMore"]?.boolValue == true ? page["revision"]?.stringValue : nil
        } while revision != nil
        return ScenarioTranscript.ServerAPIAnswers(subscriptionStatuses: Self.json(statuses.body), transactionHistory: pages)
    }

    private static func record(_ notification: SignedNotification) -> ScenarioTranscript.Notification {
        let payload = decodedJWS(notification.signedPayload) ?? .null
        let data = payload["data"]
        return ScenarioTranscript.Notification(
            notificationUUID: notification.notificationUUID, kind: notification.kind.description,
            notificationType: notification.notificationType.rawValue, subtype: notification.subtype?.rawValue,
            signedDate: notification.signedDate, eventSequence: notification.eventSequence, signedPayload: notification.signedPayload,
            payload: payload, transactionInfo: data?["signedTransactionInfo"]?.stringValue.flatMap(decodedJWS),
            renewalInfo: data?["signedRenewalInfo"]?.stringValue.flatMap(decodedJWS), deliveryAttempts: [])
    }

    /// The payload of a JWS the forge signed, as JSON.
    static func decodedJWS(_ text: String) -> JSONValue? {
        guard let jws = try? CompactJWS(text) else { return nil }
        return json(jws.payload)
    }

    /// Bytes the forge itself wrote as JSON.
    static func json(_ bytes: [UInt8]) -> JSONValue {
        do throws(JSONInputError) {
            return try JSONInput.parse(bytes, file: "answer").value
        } catch {
            preconditionFailure("the forge wrote JSON that does not parse: \(error)")
        }
    }
}
