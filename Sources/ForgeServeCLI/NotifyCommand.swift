import AppInput
import ArgumentParser
import ForgeCommandLine
import Foundation
import HTTPWebhook
import LocalAppStore
import NotificationDelivery
import StoreNotifications
import StoreScenarios

/// `forge notify URL`: signed notifications sent to a webhook with Apple's retries, no
/// server. Network code: kept out of the StoreScenarios library.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ServerCommand.notify.rawValue,
        abstract: ServerCommand.notify.abstract,
        discussion: """
            --type T [--subtype S] sends one notification of that kind: TEST, or the first notification of that \
            kind a catalogue scenario makes (its data names a real transaction of that scenario's store). \
            --scenario NAME sends every notification of the scenario, in order. Each is POSTed as \
            {"signedPayload": …} (Content-Type: application/json); HTTP 200-206 is delivered, anything else, a \
            timeout or a refused connection a failed attempt. Production retries 1, 12, 24, 48 and 72 store hours \
            after the previous attempt (same notificationUUID); sandbox sends once.

            --time-rate maps store time to real time: a factor (store seconds per real second) or one of \
            \(StoreTimeRate.named.map(\.name).joined(separator: ", ")). The default, 3600, makes one store hour one \
            real second: a notification that fails every attempt takes 157 seconds. One line per attempt on \
            standard output: store time, notificationUUID, attempt, TYPE/SUBTYPE, Apple's sendAttemptResult and \
            what the forge saw.

            Exit codes: 0 every notification was delivered; 1 some were not (a summary names them); 64 usage error.
            """
    )

    @Argument(help: "The webhook (http or https).")
    var url: String

    @Option(help: ArgumentHelp("notificationType to send (SUBSCRIBED, DID_RENEW, TEST …).", valueName: "T"))
    var type: String?

    @Option(help: ArgumentHelp("subtype of --type (INITIAL_BUY, GRACE_PERIOD …).", valueName: "S"))
    var subtype: String?

    @Option(help: ArgumentHelp("Send every notification of a catalogue scenario.", valueName: "NAME"))
    var scenario: String?

    @Option(help: "production or sandbox (sandbox sends once).")
    var environment: EnvironmentOption = .production

    @Option(name: .customLong("time-rate"), help: ArgumentHelp("Store seconds per real second, or a named rate.", valueName: "FACTOR"))
    var timeRate: String = "3600"

    @Option(help: ArgumentHelp("Seconds an attempt may take before it is TIMED_OUT.", valueName: "S"))
    var timeout: Double = 5

    func validate() throws {
        guard (type == nil) != (scenario == nil) else { throw ValidationError("give --type T or --scenario NAME, not both") }
        if subtype != nil, type == nil { throw ValidationError("--subtype goes with --type") }
        guard StoreTimeRate(timeRate) != nil else { throw ValidationError("--time-rate '\(timeRate)' is not one of: \(StoreTimeRate.spellings)") }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout is more than 0 and at most 600 seconds") }
    }

    func run() async throws {
        let notifications: [SignedNotification]
        do {
            notifications = try await NotificationChoice.notifications(type: type, subtype: subtype, scenario: scenario,
                                                                      environment: environment.value)
        } catch {
            printError("forge notify: \(error)")
            throw ExitCode(ForgeExit.malformedInput.rawValue)
        }
        guard let rate = StoreTimeRate(timeRate) else { preconditionFailure("validate() checked the rate") }
        let sender = try HTTPWebhookSender(timeout: .milliseconds(Int64(timeout * 1_000)))
        let outbox = NotificationOutbox(schedule: RetrySchedule.of(environment.value))
        let courier = NotificationCourier(outbox: outbox, sender: sender, url: url, maximumConcurrentAttempts: 1)
        // Store time starts at the first notification's date and runs `rate` times faster than the wall clock.
        let start = notifications.map(\.signedDate).min() ?? 0
        for notification in notifications {
            try outbox.enqueue(OutgoingNotification(notificationUUID: notification.notificationUUID, typeAndSubtype: notification.kind.description,
                                                    signedPayload: notification.signedPayload), at: start)
        }
        let clock = ScaledClockSource(start: start, rate: rate.factor)
        while true {
            for report in await courier.deliverDue(upTo: clock.currentInstant()) {
                print(NotificationAttemptLine.text(report))
            }
            guard let next = outbox.nextDueDate else { break }
            // Wait (real time) until the next retry falls due in store time.
            let wait = clock.wallMilliseconds(until: next)
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
        }
        await sender.shutdown()
        let records = outbox.allRecords
        let undelivered = records.filter { !$0.isDelivered }
        guard undelivered.isEmpty else {
            print("forge notify: \(records.count - undelivered.count) of \(records.count) notifications delivered; not delivered:")
            for record in undelivered {
                let last = record.attempts.last.map { "\($0.sendAttemptResult.rawValue) (\($0.detail))" } ?? "no attempt"
                print("  \(record.notification.notificationUUID) \(record.notification.typeAndSubtype): "
                      + "\(record.attempts.count) attempt\(record.attempts.count == 1 ? "" : "s"), last \(last)")
            }
            throw ExitCode(ForgeExit.invalid.rawValue)
        }
        print("forge notify: \(records.count) notification\(records.count == 1 ? "" : "s") delivered")
    }
}

/// What `forge notify` sends: a scenario's notifications, or one of a kind.
enum NotificationChoice {

    static func notifications(type: String?, subtype: String?, scenario: String?, environment: AppEnvironment) async throws -> [SignedNotification] {
        let runner = ScenarioRunner(environment: environment)
        if let scenario {
            return try await runner.notifications(of: Scenario.named(scenario))
        }
        let wanted = subtype.map { "\(type ?? "")/\($0)" } ?? type ?? ""
        var offered: [String] = []
        for candidate in Scenario.catalogue {
            let signed = try await runner.notifications(of: candidate)
            if let match = signed.first(where: { $0.kind.description == wanted }) { return [match] }
            offered += signed.map(\.kind.description)
        }
        var seen = Set<String>()
        throw NotificationChoiceError(code: .noScenarioMakesIt, description: "no catalogue scenario makes \(wanted); kinds: "
                      + offered.filter { seen.insert($0).inserted }.joined(separator: ", "))
    }
}

/// Why `forge notify` has nothing to send.
struct NotificationChoiceError: Error, CustomStringConvertible {
    enum Code: String {
        /// No scenario of the catalogue makes the TYPE/SUBTYPE asked for.
        case noScenarioMakesIt
    }

    let code: Code
    let description: String
}
