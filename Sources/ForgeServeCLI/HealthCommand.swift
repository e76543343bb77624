import ArgumentParser
import ForgeCommandLine

/// `forge health`: asks a running `forge serve` for `/health` and exits 0 when it answers
/// 200. The image's `HEALTHCHECK` runs it (the image holds no curl or shell).
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ServerCommand.health.rawValue,
        abstract: ServerCommand.health.abstract,
        discussion: """
            Exits 0 when the server answers 200, 1 when it answers another status or cannot be reached \
            (the reason on standard error), within --timeout; 64 for a URL or timeout it cannot use.

            EXAMPLES:
              forge health                                   # the server of `forge serve` on 127.0.0.1:8080
              forge health --url http://127.0.0.1:9000/health
            In a Containerfile (the image of scripts/image):
              HEALTHCHECK CMD ["/usr/local/bin/forge-serve", "health"]
            """
    )

    @Option(help: ArgumentHelp("The server's health URL (plain http).", valueName: "URL"))
    var url = "http://127.0.0.1:8080/health"

    @Option(help: ArgumentHelp("Seconds the whole check may take.", valueName: "SECONDS"))
    var timeout: Double = 3

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 600 else {
            throw ValidationError("--timeout \(timeout): give seconds above 0 and at most 600")
        }
        do {
            _ = try probe()
        } catch {
            throw ValidationError("--url \(error)")
        }
    }

    private func probe() throws(HealthProbe.ProbeError) -> HealthProbe {
        try HealthProbe(url: url, timeoutMilliseconds: Int32((timeout * 1_000).rounded(.up)))
    }

    func run() throws {
        do {
            let status = try probe().status()
            guard status == 200 else {
                printError("forge health: \(url) answered \(status), not 200")
                throw ExitCode.failure
            }
            print("forge health: \(url) answered 200")
        } catch let error as HealthProbe.ProbeError {
            printError("forge health: \(error)")
            throw ExitCode.failure
        }
    }
}
