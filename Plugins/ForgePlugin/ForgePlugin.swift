import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory forge ARGUMENTS`: runs `forge
/// ARGUMENTS` from the package's directory, so a relative `--out` (or the default
/// `Fixtures/`) lands in the package and nowhere else. Every argument goes to `forge`
/// as given: `forge --help` lists them. The permission is SwiftPM's: without the flag,
/// `swift package` asks (in a terminal) or refuses before the forge runs; on macOS its
/// sandbox also keeps the forge's writes inside the package. The server commands
/// (`serve`, `notify`, `scenario run --notify`) need forge-serve, which cannot be built
/// while the plugin runs: forge says to use `swift run forge-serve …` instead.
@main
struct ForgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // A tool the plugin depends on as a target is named after the target (ForgeCLI), not its product.
        let forge = try context.tool(named: "ForgeCLI")
        let process = Process()
        process.executableURL = forge.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // Tells forge it runs under this plugin (ServerCommandHandOver.pluginEnvironmentVariable):
        // SwiftPM holds the build folder meanwhile, so `forge serve` must not build forge-serve.
        process.environment = ProcessInfo.processInfo.environment.merging(["RECEIPT_FORGE_PLUGIN": "1"]) { _, new in new }
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ForgeFailed(arguments: arguments, status: process.terminationStatus)
        }
    }
}

/// `forge` exited with a status other than 0 (its help lists what each means).
struct ForgeFailed: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32

    var description: String { "forge \(arguments.joined(separator: " ")) exited with status \(status)" }
}
