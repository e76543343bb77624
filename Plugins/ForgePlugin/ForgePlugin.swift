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
///
/// `forge` is built by asking SwiftPM for the product (`packageManager.build`), not
/// declared as the plugin's tool: a tool is compiled a second time for the host (every
/// module of the forge, swift-crypto's BoringSSL among them, as `…-tool`), in this
/// package's own `swift build` and in every package that uses the plugin. Built as a
/// product, it shares the package's debug build.
@main
struct ForgePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let forge = try buildForge()
        let process = Process()
        process.executableURL = forge
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // Tells forge it runs under this plugin (ServerCommandHandOver.pluginEnvironmentVariable):
        // SwiftPM holds the build folder meanwhile, so `forge serve` must not build forge-serve.
        process.environment = ProcessInfo.processInfo.environment.merging(["RECEIPT_FORGE_PLUGIN": "1"]) { _, new in new }
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ForgePluginError(code: .forgeFailed(arguments: arguments, status: process.terminationStatus))
        }
    }

    /// The `forge` product, built (debug) in the package's build folder; its location.
    func buildForge() throws -> URL {
        FileHandle.standardError.write(Data("forge plugin: building forge (the first time compiles swift-crypto: minutes)…\n".utf8))
        let result = try packageManager.build(.product("forge"), parameters: .init(configuration: .debug, logging: .concise))
        guard result.succeeded else {
            throw ForgePluginError(code: .buildFailed(log: result.logText))
        }
        guard let forge = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "forge" }) else {
            throw ForgePluginError(code: .buildFailed(log: "the build succeeded but named no executable `forge` among "
                                                       + result.builtArtifacts.map { $0.url.path }.joined(separator: ", ")))
        }
        return forge.url
    }
}

/// Why `swift package forge …` failed: `forge` exited with a status other than 0 (its help
/// lists what each means), or SwiftPM could not build it (the end of its log says why).
struct ForgePluginError: Error, CustomStringConvertible {
    enum Code {
        case forgeFailed(arguments: [String], status: Int32)
        case buildFailed(log: String)
    }

    let code: Code

    var description: String {
        switch code {
        case .forgeFailed(let arguments, let status):
            return "forge \(arguments.joined(separator: " ")) exited with status \(status)"
        case .buildFailed(let log):
            let said = log.trimmingCharacters(in: .whitespacesAndNewlines)
            return "forge plugin: building the product forge failed: "
                + (said.isEmpty ? "SwiftPM gave no log (does the package graph have the product forge?)" : "\n" + String(said.suffix(4_000)))
        }
    }
}
