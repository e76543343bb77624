import ArgumentParser
import ForgeCommandLine
import StoreScenarios

/// `forge scenario run` with its `--notify URL`: the run `forge` hands over when a
/// webhook is asked for, each notification posted as it happens.
struct ScenarioNotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: ScenarioRunOptions.scenarioAbstract,
        subcommands: [Run.self]
    )

    struct Run: AsyncParsableCommand {
        static let configuration = ScenarioRunOptions.commandConfiguration

        @OptionGroup var options: ScenarioRunOptions

        func run() async throws {
            let script = try options.script()
            let webhook = try options.notify.map { url in try ScenarioWebhookObserver(url: url, environment: options.environment.value) }
            let transcript: ScenarioTranscript
            do {
                transcript = try await options.transcript(of: script, observer: webhook)
            } catch {
                await webhook?.shutdown()
                throw error
            }
            await webhook?.shutdown()
            try options.write(transcript, of: script)
        }
    }
}
