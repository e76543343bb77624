import ArgumentParser
import ForgeCommandLine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `forge serve …` (each `ServerCommand`, and `forge scenario run --notify`) runs
/// `forge-serve` in place of this process, with the same arguments, so `forge` itself
/// never links the HTTP stack. `forge-serve` is looked for beside the running `forge`
/// (the release tarball and `swift build` put it there). Missing from a SwiftPM build
/// folder (`swift run forge serve` builds only `forge`), it is built there first with
/// the same configuration and scratch path; missing elsewhere, the error says how to
/// get it.
enum ServerCommandHandOver {
    /// Set by the command plugin (Plugins/ForgePlugin, which cannot import this module
    /// and spells it out) for the forge it runs.
    static let pluginEnvironmentVariable = "RECEIPT_FORGE_PLUGIN"

    /// The arguments for `forge-serve` when `arguments` (without the executable) name a
    /// server command: `serve …` as is, `help serve` as `serve --help`. Nil for any other
    /// command, which `forge` parses itself.
    static func arguments(for arguments: [String]) -> [String]? {
        guard let first = arguments.first else { return nil }
        if ServerCommand(rawValue: first) != nil { return arguments }
        if first == "help", arguments.count == 2, ServerCommand(rawValue: arguments[1]) != nil { return [arguments[1], "--help"] }
        return nil
    }

    /// Replaces this process with `forge-serve arguments`; returns only by exiting with
    /// `ForgeExit.unavailable` after saying why, prefixed with `context` (`forge NAME`
    /// by default).
    static func run(_ arguments: [String], context: String? = nil) -> Never {
        let command = context ?? arguments.first.map { "forge \($0)" } ?? "forge"
        guard let executable = runningExecutable() else {
            fail("\(command): cannot tell where this forge executable is, so cannot find \(ServerCommand.executableName) beside it")
        }
        let directory = executable.deletingLastPathComponent()
        let companion = directory.appendingPathComponent(ServerCommand.executableName)
        if !FileManager.default.isExecutableFile(atPath: companion.path) {
            // Under `swift package forge`, SwiftPM holds the build folder's lock until the
            // plugin ends: a `swift build` from here would wait for it for ever.
            if ProcessInfo.processInfo.environment[pluginEnvironmentVariable] != nil {
                fail("""
                    \(command): the commands that need HTTP live in the executable \(ServerCommand.executableName), which \
                    `swift package forge` cannot build (SwiftPM holds the build folder while a plugin runs). From this \
                    package, `swift run \(ServerCommand.executableName) \(arguments.first ?? "serve") …` builds it (the first \
                    time takes 3–5 minutes) and runs it.
                    """)
            }
            guard let build = SwiftPMBuildFolder(productsDirectory: directory) else {
                fail("""
                    \(command): the commands that need HTTP live in the executable \(ServerCommand.executableName), which is not beside this forge \
                    (\(directory.path)). The release tarball holds both; from a checkout, `swift build --product \
                    \(ServerCommand.executableName)` builds it beside forge, and `swift run \(command) …` \
                    builds it when missing.
                    """)
            }
            printError("\(command): building \(ServerCommand.executableName) (`swift build --product \(ServerCommand.executableName)`), "
                + "the first time takes 3–5 minutes…")
            build.buildProduct(ServerCommand.executableName, context: command)
        }
        let argv = ([companion.path] + arguments).map { strdup($0) } + [nil]
        execv(companion.path, argv)
        fail("\(command): cannot run \(companion.path): \(String(cString: strerror(errno)))")
    }

    /// The running executable, symbolic links resolved: /proc/self/exe on Linux,
    /// `_NSGetExecutablePath` (through `Bundle.main`) on macOS.
    private static func runningExecutable() -> URL? {
        #if os(Linux)
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path)
        #else
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
        #endif
    }

    private static func fail(_ message: String) -> Never {
        printError(message)
        exit(ForgeExit.unavailable.rawValue)
    }
}

/// A server command in `forge --help` (`forge serve`, `forge notify`): its name and
/// abstract, which says that it runs forge-serve. `forge` hands these commands over
/// before parsing, so `run` is reached only if that was bypassed.
protocol HandedOverCommand: ParsableCommand {
    static var command: ServerCommand { get }
    /// Everything after the command's name, as given.
    var arguments: [String] { get }
}

extension HandedOverCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: command.rawValue,
                             abstract: "\(command.abstract) Runs \(ServerCommand.executableName).")
    }

    func run() {
        ServerCommandHandOver.run([Self.command.rawValue] + arguments)
    }
}

struct ServeHandOverCommand: HandedOverCommand {
    static let command = ServerCommand.serve

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []
}

struct NotifyHandOverCommand: HandedOverCommand {
    static let command = ServerCommand.notify

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []
}

struct HealthHandOverCommand: HandedOverCommand {
    static let command = ServerCommand.health

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []
}
