import ArgumentParser
import ForgeCommandLine

/// `forge-serve`: the subcommands of `forge` that need the HTTP stack (`ServerCommand`,
/// and `scenario run` for its `--notify`), in an executable of their own so that a user
/// who only mints, checks or verifies never compiles SwiftNIO, Hummingbird or
/// async-http-client. `forge serve …` (`forge notify …`, `forge scenario run --notify …`)
/// runs this executable with the same arguments; it answers to `forge` so its usage
/// lines and errors read as `forge serve`.
@main
struct ForgeServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forge",
        abstract: "The forge's commands that need HTTP (`forge serve`, `forge notify`, `forge scenario run --notify`), "
            + "run by `forge` or on their own as forge-serve.",
        subcommands: [ServeCommand.self, NotifyCommand.self, ScenarioNotifyCommand.self, HealthCommand.self]
    )
}
