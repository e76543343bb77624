import AppInput
import ArgumentParser
import ForgeCommandLine
import Foundation
import LocalAppStore
import OwnedFileTree
import StoreScenarios

/// `forge scenario list` and `forge scenario run`: lifecycles as fixtures.
struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "Run named subscription lifecycles on a fresh local App Store and write what happened as fixtures.",
        subcommands: [List.self, Run.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The catalogue's scenarios, one line each.")

        func run() {
            let width = Scenario.catalogue.map(\.name.count).max() ?? 0
            for scenario in Scenario.catalogue {
                print(scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scenario.summary)
            }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
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
                still owed at the end are made then); the transcript records every attempt.

                Exit codes: 0 the run matched the scenario's expected notifications; 1 it did not (the transcript is \
                still written); \(ForgeExit.malformedInput.rawValue) the scenario file is not a scenario, or a step was \
                refused (the error names the JSON location); 73/74 the output cannot be written.

                Examples:
                  forge scenario run trial-billing-retry-recovery --out scenarios --html trial.html
                  forge scenario run --scenario my-lifecycle.json --environment sandbox
                  forge scenario run refund-declined-reversed --notify http://127.0.0.1:8080/notifications
                """
        )

        @Argument(help: "A scenario of `forge scenario list`.")
        var name: String?

        @Option(help: ArgumentHelp("Run your own script instead (JSON, Schemas/scenario.schema.json).", valueName: "FILE"))
        var scenario: String?

        @Option(help: ArgumentHelp("Write the transcript to DIR/NAME.json.", valueName: "DIR"))
        var out: String?

        @Option(help: ArgumentHelp("Write the run as one self-contained HTML page.", valueName: "FILE"))
        var html: String?

        @Option(help: ArgumentHelp("POST each notification to this webhook as it happens.", valueName: "URL"))
        var notify: String?

        @Option(help: "production or sandbox (sandbox sends each notification once).")
        var environment: EnvironmentOption = .production

        @Option(help: "The store's seed (ids, notification UUIDs).")
        var seed: UInt64 = StoreConfiguration().seed

        func validate() throws {
            guard (name == nil) != (scenario == nil) else {
                throw ValidationError("give a scenario NAME (forge scenario list) or --scenario FILE, not both")
            }
        }

        func run() async throws {
            let script: Scenario
            do throws(ScenarioError) {
                if let scenario {
                    script = try Scenario(contentsOfFile: scenario)
                } else {
                    script = try Scenario.named(name ?? "")
                }
            } catch {
                printError("forge scenario run: \(error)")
                throw (error.code == .unreadable ? ForgeExit.ioError : ForgeExit.malformedInput).code
            }
            let poster = try notify.map { url in try ScenarioWebhookObserver(url: url, environment: environment.value) }
            let transcript: ScenarioTranscript
            do throws(ScenarioError) {
                transcript = try await ScenarioRunner(environment: environment.value, seed: seed).run(script, observer: poster)
            } catch {
                await poster?.shutdown()
                printError("forge scenario run: \(error)")
                throw (error.code == .signingFailed ? ForgeExit.internalFailure : ForgeExit.malformedInput).code
            }
            await poster?.shutdown()
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
}

/// `--environment production|sandbox`.
enum EnvironmentOption: String, ExpressibleByArgument, CaseIterable {
    case production, sandbox

    var value: AppEnvironment { self == .production ? .production : .sandbox }
}
