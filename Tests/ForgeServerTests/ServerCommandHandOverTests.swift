import Foundation
import TestSupport
import XCTest

/// `forge serve …` and `forge notify …` run forge-serve with the same arguments (the
/// help is the real one, whichever way it is asked for), `forge scenario run --notify`
/// too; a forge without forge-serve beside it (outside a SwiftPM build folder) says how
/// to get it, and does everything else itself.
final class ServerCommandHandOverTests: XCTestCase {
    func testForgeListsServeAndNotifyAndShowsForgeServesOwnHelp() throws {
        let overview = try ChildProcess.run(ChildProcess.product("forge"), ["--help"])
        XCTAssertEqual(overview.status, 0)
        let listed = overview.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(listed.contains("serve Answer like Apple's verifyReceipt"), overview.standardOutput)
        XCTAssertTrue(listed.contains("notify Send App Store Server Notifications V2 to a webhook"), overview.standardOutput)
        XCTAssertTrue(listed.contains("health Ask a running forge serve for /health"), overview.standardOutput)
        XCTAssertEqual(listed.components(separatedBy: "Runs forge-serve.").count - 1, 3, overview.standardOutput)

        for (command, option) in [("serve", "--rate-limits"), ("notify", "--time-rate"), ("health", "--timeout")] {
            let direct = try ChildProcess.run(ChildProcess.product("forge-serve"), [command, "--help"])
            XCTAssertEqual(direct.status, 0)
            XCTAssertTrue(direct.standardOutput.contains("USAGE: forge \(command)"), direct.standardOutput)
            XCTAssertTrue(direct.standardOutput.contains(option), direct.standardOutput)
            for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
                let handedOver = try ChildProcess.run(ChildProcess.product("forge"), arguments)
                XCTAssertEqual(handedOver.status, 0, "\(arguments)")
                XCTAssertEqual(handedOver.standardOutput, direct.standardOutput, "\(arguments)")
            }
        }

        // `scenario run` is one set of options in both executables: forge's help is forge-serve's.
        let run = try ChildProcess.run(ChildProcess.product("forge"), ["scenario", "run", "--help"])
        let serveRun = try ChildProcess.run(ChildProcess.product("forge-serve"), ["scenario", "run", "--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.standardOutput.contains("--notify <URL>"), run.standardOutput)
        XCTAssertEqual(run.standardOutput, serveRun.standardOutput)
    }

    func testForgeServeHoldsEachServerCommand() throws {
        let overview = try ChildProcess.run(ChildProcess.product("forge-serve"), ["--help"])
        XCTAssertEqual(overview.status, 0)
        let listed = overview.standardOutput.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        for command in ["serve ", "notify ", "scenario ", "health "] {
            XCTAssertTrue(listed.contains(command), overview.standardOutput)
        }
    }

    /// The light build: forge's executable holds no symbol of the HTTP stack's modules,
    /// forge-serve's does (so the search finds them where they are).
    func testForgeLinksNoHTTPStack() throws {
        // Module names as Swift mangles them into symbol names (length, then name).
        let modules = ["NIOCore", "NIOPosix", "NIOSSL", "AsyncHTTPClient", "Hummingbird", "ServiceLifecycle", "Logging", "HTTPWebhook", "ForgeServer"]
        let forge = try Data(contentsOf: ChildProcess.product("forge"))
        let forgeServe = try Data(contentsOf: ChildProcess.product("forge-serve"))
        for module in modules {
            let mangled = Data("$s\(module.utf8.count)\(module)".utf8)
            XCTAssertNil(forge.range(of: mangled), "forge links \(module)")
            XCTAssertNotNil(forgeServe.range(of: mangled), "forge-serve does not link \(module)")
        }
    }

    func testAForgeWithoutForgeServeSaysHowToGetIt() throws {
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("forge-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let forge = alone.appendingPathComponent("forge")
        try FileManager.default.copyItem(at: ChildProcess.product("forge"), to: forge)

        let handedOver = [
            ("forge serve", ["serve", "--port", "0"]),
            ("forge notify", ["notify", "http://127.0.0.1:9/", "--type", "TEST"]),
            ("forge scenario run --notify", ["scenario", "run", "refund-declined-reversed", "--notify", "http://127.0.0.1:9/"]),
        ]
        for (context, arguments) in handedOver {
            let result = try ChildProcess.run(forge, arguments, workingDirectory: alone)
            XCTAssertEqual(result.status, 69, "\(arguments)")
            XCTAssertEqual(result.standardOutput, "", "\(arguments)")
            for phrase in ["\(context): the commands that need HTTP live in the executable forge-serve, which is not beside this forge (\(alone.resolvingSymlinksInPath().path))",
                           "swift build --product forge-serve", "swift run \(context) …"] {
                XCTAssertTrue(result.standardError.contains(phrase), result.standardError)
            }
        }
        // Everything else stays in forge, a scenario run without a webhook included.
        let list = try ChildProcess.run(forge, ["list"], workingDirectory: alone)
        XCTAssertEqual(list.status, 0, list.standardError)
        let scenario = try ChildProcess.run(forge, ["scenario", "run", "refund-declined-reversed"], workingDirectory: alone)
        XCTAssertEqual(scenario.status, 0, scenario.standardError)
        XCTAssertTrue(scenario.standardOutput.hasPrefix("{"), scenario.standardOutput)
    }

    /// Under `swift package forge` (the plugin sets RECEIPT_FORGE_PLUGIN), a forge in a
    /// SwiftPM build folder without forge-serve says what to run instead of building it:
    /// SwiftPM holds that folder while the plugin runs, and the build would wait for ever.
    func testUnderThePluginForgeDoesNotBuildForgeServe() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("forge-plugin-\(UUID().uuidString)")
        let products = package.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: package) }
        try Data("{}".utf8).write(to: package.appendingPathComponent(".build/workspace-state.json"))
        try Data("// swift-tools-version:6.0\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        let forge = products.appendingPathComponent("forge")
        try FileManager.default.copyItem(at: ChildProcess.product("forge"), to: forge)

        var environment = ProcessInfo.processInfo.environment
        environment["RECEIPT_FORGE_PLUGIN"] = "1"
        let result = try ChildProcess.run(forge, ["serve", "--port", "0"], environment: environment, workingDirectory: package)
        XCTAssertEqual(result.status, 69, result.standardError)
        XCTAssertTrue(result.standardError.contains("forge serve: the commands that need HTTP live in the executable forge-serve, which "
            + "`swift package forge` cannot build (SwiftPM holds the build folder while a plugin runs). From this package, "
            + "`swift run forge-serve serve …` builds it (the first time takes 3–5 minutes) and runs it."), result.standardError)
        XCTAssertFalse(result.standardError.contains("building forge-serve"), result.standardError)
    }
}
