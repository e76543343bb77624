import ForgeCommandLine
import Foundation

/// A products folder of SwiftPM's, `SCRATCH/TRIPLE/CONFIGURATION/` (`.build/x86_64-unknown-linux-gnu/debug/`),
/// recognised by the `workspace-state.json` SwiftPM keeps in the scratch folder.
struct SwiftPMBuildFolder {
    let scratch: URL
    let configuration: String
    /// The package the scratch folder belongs to.
    let package: URL

    init?(productsDirectory: URL) {
        configuration = productsDirectory.lastPathComponent
        guard ["debug", "release"].contains(configuration) else { return nil }
        scratch = productsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: scratch.appendingPathComponent("workspace-state.json").path) else { return nil }
        // `.build` sits in its package; a scratch folder elsewhere (`--scratch-path`) is
        // built from the package in the current directory, as `swift run` was.
        let candidates = [scratch.deletingLastPathComponent(), URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        guard let package = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Package.swift").path)
        }) else { return nil }
        self.package = package
    }

    /// `swift build --product NAME` into this folder; its output goes to standard error
    /// (standard output is the command's). A failed build exits `ForgeExit.unavailable`.
    func buildProduct(_ name: String, context: String) {
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swift.arguments = ["swift", "build", "--product", name, "--configuration", configuration,
                           "--scratch-path", scratch.path, "--package-path", package.path]
        swift.standardOutput = FileHandle.standardError
        swift.standardError = FileHandle.standardError
        do {
            try swift.run()
        } catch {
            printError("\(context): cannot run swift to build \(name): \(error)")
            exit(ForgeExit.unavailable.rawValue)
        }
        swift.waitUntilExit()
        guard swift.terminationReason == .exit, swift.terminationStatus == 0 else {
            printError("\(context): `swift build --product \(name)` failed (status \(swift.terminationStatus))")
            exit(ForgeExit.unavailable.rawValue)
        }
    }
}
