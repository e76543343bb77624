import ArgumentParser
import Forge
import Foundation

/// `forge ca --out DIR [--swift FILE]`
struct CACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Generate a fresh throwaway test CA (new RSA-2048 keys) into a directory.",
        discussion: """
            Writes DIR/{root,intermediate,leaf,unrelated-root,storekit}.{cer,pem,key.pem} and DIR/README.md. \
            The committed CA is Certs/; regenerate it (and the copy compiled into the forge) with \
            scripts/regenerate-certs, i.e. `forge ca --out Certs --swift Sources/Forge/EmbeddedCertificateAuthority.swift`. \
            Every receipt minted afterwards changes: the keys are new.
            """
    )

    @Option(help: "Directory to write the CA into (created if needed).")
    var out: String

    @Option(help: "Also write the Swift source that embeds the CA in the forge.")
    var swift: String?

    func run() throws {
        let authority: CertificateAuthority
        do {
            authority = try CertificateAuthority.generate()
        } catch {
            printError("forge ca: \(error)")
            throw ForgeExit.ioError.code
        }
        let directory = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, bytes) in authority.files.sorted(by: { $0.key < $1.key }) {
                try Data(bytes).write(to: directory.appendingPathComponent(name), options: .atomic)
            }
            if let swift {
                try Data(authority.embeddedSource.utf8).write(to: URL(fileURLWithPath: swift), options: .atomic)
            }
        } catch {
            printError("forge ca: cannot write: \(error.localizedDescription)")
            throw ForgeExit.ioError.code
        }
        printError("forge ca: wrote a new test CA to \(directory.path)" + (swift.map { " and \($0)" } ?? ""))
    }
}
