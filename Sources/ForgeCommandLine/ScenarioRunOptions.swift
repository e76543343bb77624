import AppInput
import ArgumentParser
import Foundation
import LocalAppStore
import OwnedFileTree
import StoreScenarios

/// `forge scenario run`'s arguments, help and output, the same in `forge` and
/// `forge-serve`: `forge` runs a scenario itself, and hands the run over to
/// `forge-serve` when `--notify` asks for a webhook (HTTP), where the same options
/// are parsed again and the notifications are posted as the run goes.
package struct ScenarioRunOptions: ParsableArguments {
    /// `forge scenario`'s summary.
    package static let scenarioAbstract =
        "Run named subscription lifecycles on a fresh local App Store and write what happened as fixtures."

    /// `forge scenario run`'s name, summary and help.
    package static let commandConfiguration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and write its transcript (and an HTML page of it).",
        discussion: """
            The scenario runs on an empty store of the example app (seed \(StoreConfiguration().seed) unless \
            --seed): each step through the control API's verbs or the Server API's handler, every store event's \
            notification signed as Apple would send it. The transcript (JSON, Schemas/scenario-transcript.schema.json) \
            lists each step with its action, the store's instant, its notifications (the signed body and the decoded \
            payloads, nested JWS included), the Server API's answers for the scenario's customer afterwards (Get All \
            Subscription Statuses, Get Transaction History) and the customer's receipt at that instant. The same \
            scenario, seed and environment give the same bytes.

            --out DIR writes DIR/NAME.json; DIR is the forge's (.forge-owned): other files in it are kept, nothing \
            the forge did not write is replaced. Without --out the transcript goes to standard output. \
            --html FILE draws the run as one self-contained page. --notify URL posts each notification to URL as it \
            happens (retries per Apple's schedule in store time, made when the scenario's clock passes them; those \
            still owed at the end are made then); the transcript records every attempt. The HTTP client is \
            \(ServerCommand.executableName)'s: with --notify, forge runs \(ServerCommand.executableName) with the same arguments.

            Exit codes: 0 the run matched the scenario's expected notifications; 1 it did not (the transcript is \
            still written); \(ForgeExit.malformedInput.rawValue) the scenario file is not a scenario, or a step was \
            refused (the error names the JSON location); 73/74 the output cannot be written.

            Examples:
              forge scenario run trial-billing-retry-recovery --out scenarios --html trial.html
              forge scenario run --scenario my-lifecycle.json --environment sandbox
              forge scenario run refund-declined-reversed --notify http://127.0.0.1:8080/notifications
            """
    )

    package init() {}

    @Argument(help: "A scenario of `forge scenario list`.")
    package var name: String?

    @Option(help: ArgumentHelp("Run your own script instead (JSON, Schemas/scenario.schema.json).", valueName: "FILE"))
    package var scenario: String?

    @Option(help: ArgumentHelp("Write the transcript to DIR/NAME.json.", valueName: "DIR"))
    package var out: String?

    @Option(help: ArgumentHelp("Write the run as one self-contained HTML page.", valueName: "FILE"))
    package var html: String?

    @Option(help: ArgumentHelp("POST each notification to this webhook as it happens.", valueName: "URL"))
    package var notify: String?

    @Option(help: "production or sandbox (sandbox sends each notification once).")
    package var environment: EnvironmentOption = .production

    @Option(help: "The store's seed (ids, notification UUIDs).")
    package var seed: UInt64 = StoreConfiguration().seed

    package func validate() throws {
        guard (name == nil) != (scenario == nil) else {
            throw ValidationError("give a scenario NAME (forge scenario list) or --scenario FILE, not both")
        }
    }

    /// The scenario named or read from `--scenario`; an unreadable file exits 74, one
    /// that is not a scenario (or an unknown name) 65.
    package func script() throws -> Scenario {
        do throws(ScenarioError) {
            if let scenario {
                return try Scenario(contentsOfFile: scenario)
            }
            return try Scenario.named(name ?? "")
        } catch {
            printError("forge scenario run: \(error)")
            throw (error.code == .unreadable ? ForgeExit.ioError : ForgeExit.malformedInput).code
        }
    }

    /// Runs `script` on a fresh store, `observer` told of each step's notifications; a
    /// refused step exits 65.
    package func transcript(of script: Scenario, observer: (any ScenarioNotificationObserver)?) async throws -> ScenarioTranscript {
        do throws(ScenarioError) {
            return try await ScenarioRunner(environment: environment.value, seed: seed).run(script, observer: observer)
        } catch {
            printError("forge scenario run: \(error)")
            throw ForgeExit.malformedInput.code
        }
    }

    /// Writes the transcript (`--out` or standard output) and `--html`, then says what
    /// happened on standard error; exits 1 when the notifications are not the ones the
    /// scenario expects, 73/74 when the output cannot be written.
    package func write(_ transcript: ScenarioTranscript, of script: Scenario) throws {
        let bytes = ScenarioRunner.encode(transcript)
        do throws(OutputError) {
            if let out {
                try OutputTree(directory: URL(fileURLWithPath: out), ownership: .recordOnly)
                    .update(with: [("\(script.name).json", bytes)], replacing: [])
            } else {
                FileHandle.standardOutput.write(Data(bytes))
            }
            if let html {
                try OutputFile(path: URL(fileURLWithPath: html)).write(Array(ScenarioPage.render(transcript).utf8))
            }
        } catch {
            printError("forge scenario run: \(error)")
            throw error.exit.code
        }
        let sequence = transcript.notificationSequence
        printError("forge scenario run: \(script.name): \(transcript.steps.count) steps, \(sequence.count) notifications: "
                   + sequence.joined(separator: ", "))
        if let expected = script.expectedNotifications?.map(\.description), expected != sequence {
            printError("forge scenario run: expected \(expected.joined(separator: ", "))")
            throw ExitCode(ForgeExit.invalid.rawValue)
        }
    }
}
