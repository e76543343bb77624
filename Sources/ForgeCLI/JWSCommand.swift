import ArgumentParser
import ForgeCommandLine
import Foundation
import ReceiptForge
import ReceiptVerifier
import StoreKit2
import OwnedFileTree
import StoreKit2Forge
import StoreKit2Verifier

extension JWSKind: ExpressibleByArgument {}
extension JWSEnvironment: ExpressibleByArgument {}

/// `forge jws`: StoreKit 2 signed data (transactions, renewal info, notifications,
/// app transactions) signed by the test P-256 CA, and their verifier.
struct JWSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws",
        abstract: "StoreKit 2 JWS fixtures signed by a throwaway Apple-shaped P-256 CA, and a verifier with Apple's rules.",
        discussion: """
            `forge jws --all` writes every case to Fixtures/storekit2 (also written by `forge --all`): per case \
            NAME/signed.jws (transactions, renewal info, app transactions) or NAME/notification.json \
            ({"signedPayload": …}), and NAME/case.json with the status Apple's SignedDataVerifier gives it and the \
            verifier settings (bundle id, app Apple id, environment, root certificates relative to the tree); plus \
            manifest.json and Certs/jws-root.cer. `forge jws list` shows the cases; `forge jws verify` checks a file.
            """,
        subcommands: [JWSMintCommand.self, JWSListCommand.self, JWSVerifyCommand.self],
        defaultSubcommand: JWSMintCommand.self
    )
}

/// `forge jws [mint] --all | --case NAME … [--out DIR]`.
struct JWSMintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract: "Mint StoreKit 2 cases (the default subcommand of `forge jws`).",
        discussion: """
            Signatures are ES256 with RFC 6979 nonces: the same --now, --seed and app flags give byte-identical \
            files. signedDate is the receipts' creation date (about 30 days before --now). DIR follows the \
            forge's ownership rules: it must not exist, be empty, or be a tree the forge wrote; files the forge \
            did not write are kept. Exit 73 when something in the way is refused, 74 on a write error.

            Examples:
              forge jws --all
              forge jws --case transaction-production --case notification-refund --out /tmp/sk2
              forge jws --all --bundle-id com.example.app --now 2027-01-01T00:00:00Z
            """)

    @OptionGroup
    var selection: CaseSelection<JWSCase>

    @Option(help: "Output directory.")
    var out = "Fixtures/storekit2"

    @OptionGroup
    var reference: ReferenceOptions

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("The app's Apple id in payloads (default \(JWSForge.defaultAppAppleId)).",
                                                                  valueName: "N"))
    var appAppleId: Int64?

    @OptionGroup(title: "Your app (bundle id and version apply to JWS)")
    var appOptions: AppOptions

    func run() throws {
        let forge = JWSForge(app: try appOptions.description(context: "forge jws"), settings: try reference.settings(),
                             appAppleId: appAppleId ?? JWSForge.defaultAppAppleId)
        let selected = try selection.cases()
        let report = try forge.writeFixtures(selected, to: URL(fileURLWithPath: out), context: "forge jws")
        report.printNotes()
        printError("forge jws: wrote \(selected.count) StoreKit 2 case\(selected.count == 1 ? "" : "s") into "
                   + URL(fileURLWithPath: out).standardizedFileURL.path)
    }
}

/// `forge jws list [--json]`.
struct JWSListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the StoreKit 2 cases: kind, expected status, verifier environment, description.")

    @Flag(help: "Print JSON: [{id, kind, expectedStatus, swiftLibrary, environment, description}] (swiftLibrary: what Apple's Swift library answers, docs/storekit2.md).")
    var json = false

    func run() throws {
        if json {
            struct Row: Encodable {
                let id: String, kind: JWSKind, expectedStatus: JWSVerificationStatus, swiftLibrary: SwiftLibraryVerdict
                let environment: JWSEnvironment, description: String
            }
            let rows = JWSCase.catalogue.map {
                Row(id: $0.id, kind: $0.kind, expectedStatus: $0.expected, swiftLibrary: $0.swiftLibrary,
                    environment: $0.environment, description: $0.summary)
            }
            print(String(decoding: try forgeJSON(rows), as: UTF8.self), terminator: "")
            return
        }
        let width = JWSCase.catalogue.map(\.id.count).max() ?? 0
        for jwsCase in JWSCase.catalogue {
            let swift = jwsCase.swiftLibraryWhereItDiffers.map { " (Apple's Swift library: \($0.rawValue))" } ?? ""
            print("\(pad(jwsCase.id, width))  \(pad(jwsCase.kind.rawValue, 14))  \(pad(jwsCase.expected.rawValue, 22))  "
                  + "\(pad(jwsCase.environment.rawValue, 10))  \(jwsCase.summary)\(swift)")
        }
    }
}
