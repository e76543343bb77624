import ArgumentParser
import ForgeCommandLine
import StoreScenarios

/// `forge scenario list` and `forge scenario run`: lifecycles as fixtures.
struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: ScenarioRunOptions.scenarioAbstract,
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
        static let configuration = ScenarioRunOptions.commandConfiguration

        @OptionGroup var options: ScenarioRunOptions

        func run() async throws {
            // Posting to a webhook needs the HTTP client, which forge-serve holds: the
            // same run, with the same arguments, happens there.
            if options.notify != nil {
                ServerCommandHandOver.run(Array(CommandLine.arguments.dropFirst()), context: "forge scenario run --notify")
            }
            let script = try options.script()
            try options.write(try await options.transcript(of: script, observer: nil), of: script)
        }
    }
}
