import ArgumentParser
import BER
import ForgeCommandLine
import ReceiptForge
import Foundation
import Receipt
import OwnedFileTree
import StoreKit2Forge

/// `forge [mint] --case NAME … | --all [--out DIR] [--now DATE] [--seed N]`: the default subcommand.
struct MintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract: "Mint synthetic App Store receipts from the case catalogue (the default subcommand).",
        discussion: """
            Output, under DIR (default Fixtures/):
              DIR/NAME/receipt        the binary receipt (the file name apps read; absent for `missing`)
              DIR/NAME/receipt.b64    the same, base64 (as sent to a server)
              DIR/NAME/case.json      expected {verdict, reason} and every validator input: bundle id, app \
            version, platform, device identifier (hex and UUID/MAC form), creation date and the `now` used for \
            VPP expiry, trust anchor path, digest, encoding, the OpenSSL command and its expected outcome
              DIR/manifest.json       every case of the catalogue (with a `version` field)
              DIR/Certs/root.cer      the trust anchor (DER); Certs/storekit.cer for the Xcode case

            What the forge may touch: DIR must not exist, be empty, or be a tree the forge wrote (it \
            holds .forge-owned, the list of files the forge wrote; trees from older versions are known by \
            manifest.json). Anything else is refused with exit 73 and nothing is touched. Inside a forge tree, \
            files the forge did not write (a NOTES.md, a .gitkeep) are kept. DIR itself must be a directory, \
            not a file or a symbolic link.

            `--all` builds the new tree beside DIR, syncs every file and directory of it to disk, then \
            swaps it with the old tree in one rename: after a crash or power cut DIR holds the old tree or \
            the new one, never a mix. `--case` rewrites only the named case directories, manifest.json, Certs/ \
            and .forge-owned inside DIR, each file written under a temporary name, synced and renamed into place.
            Output is deterministic: the same --now and --seed give byte-identical files. The default \
            reference dates keep every expected verdict true from today until 2090.
            `forge list` shows the cases. `--all` also writes the StoreKit 2 JWS cases into DIR/storekit2 \
            (a forge tree of its own; see `forge jws`), and the App Store Server API test key into \
            DIR/api-key (SubscriptionKey_KEYID.p8 and api-key.json with its key id, issuer id and bundle id; \
            derived from --seed, and accepted by `forge serve` by default).
            """
    )

    @OptionGroup
    var selection: CaseSelection<ForgeCase>

    @Option(help: "Output directory.")
    var out = "Fixtures"

    @OptionGroup
    var reference: ReferenceOptions

    @Flag(help: "No progress lines on standard error.")
    var quiet = false

    @OptionGroup(title: "Your app (every case is minted for it)")
    var appOptions: AppOptions

    /// `forge --all` also writes the StoreKit 2 cases (`forge jws --all`) into DIR/storekit2.
    static let storeKit2Folder = "storekit2"

    func run() throws {
        let forge = Forge(app: try appOptions.description(context: "forge"), settings: try reference.settings())
        let selected = try selection.cases()
        let started = Date()
        var minted: [MintedCase] = []
        let report = try forge.writeFixtures(selected, to: URL(fileURLWithPath: out), context: "forge") { result in
            minted.append(result)
            if !quiet {
                let size = result.receipt.map { "\($0.count) B" } ?? "no file"
                printError("forged \(pad(result.id, caseIDWidth)) \(pad(result.expected.rawValue, 22)) \(size)")
            }
        }
        // The StoreKit 2 and API key trees inside DIR are forge trees of their own, not the user's.
        var notes = report
        notes.kept.removeAll { $0.hasPrefix(MintCommand.storeKit2Folder + "/") || $0.hasPrefix(TestAPIKeyFolder.name + "/") }
        if !quiet { notes.printNotes() }
        if selection.all {
            let storeKit2 = URL(fileURLWithPath: out).appendingPathComponent(MintCommand.storeKit2Folder)
            let jwsForge = JWSForge(app: forge.app, settings: forge.settings)
            try jwsForge.writeFixtures(JWSCase.catalogue, to: storeKit2, context: "forge").printNotesIfLoud(quiet)
            if !quiet { printError("forged \(JWSCase.catalogue.count) StoreKit 2 JWS cases into \(storeKit2.standardizedFileURL.path)") }
            let apiKey = TestAPIKeyFolder(settings: forge.settings, app: forge.app)
            let apiKeyFolder = URL(fileURLWithPath: out).appendingPathComponent(TestAPIKeyFolder.name)
            try writingFixtures(context: "forge") { try apiKey.write(to: apiKeyFolder) }.printNotesIfLoud(quiet)
            if !quiet { printError("wrote the App Store Server API test key \(apiKey.key.keyIdentifier) into \(apiKeyFolder.standardizedFileURL.path)") }
        }
        let seconds = Date().timeIntervalSince(started)
        let valid = minted.filter { $0.expected == .valid }.count
        printError(String(format: "forged %d case%@ (%d valid, %d invalid) into %@ in %.2f s",
                          minted.count, minted.count == 1 ? "" : "s", valid, minted.count - valid,
                          URL(fileURLWithPath: out).standardizedFileURL.path, seconds))
    }
}

/// `forge list`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every case with its expected verdict, importance, tags and a one-line description.",
        discussion: """
            Importance: critical (a validator that gets it wrong accepts a forged or stolen receipt), \
            high (it rejects a genuine receipt users hold), low (strictness).
            Tags: \(ForgeCase.Tag.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @Flag(help: "Print JSON: [{id, expected: {verdict, reason}, importance, tags, description}].")
    var json = false

    func run() throws {
        if json {
            struct Row: Encodable {
                let id: String
                let expected: CaseDescription.Expected
                let importance: ForgeCase.Importance
                let tags: [ForgeCase.Tag]
                let description: String
            }
            let rows = ForgeCase.catalogue.map {
                Row(id: $0.id, expected: CaseDescription.Expected($0.expected), importance: $0.importance,
                    tags: $0.tags, description: $0.summary)
            }
            print(String(decoding: try forgeJSON(rows), as: UTF8.self), terminator: "")
            return
        }
        let tags = ForgeCase.catalogue.map { $0.tags.map(\.rawValue).joined(separator: ",") }
        let tagsWidth = tags.map(\.count).max() ?? 0
        for (forgeCase, tags) in zip(ForgeCase.catalogue, tags) {
            let verdict = forgeCase.expected == .valid ? "valid" : "invalid \(forgeCase.expected.rawValue)"
            print("\(pad(forgeCase.id, caseIDWidth)) \(pad(verdict, 30)) \(pad(forgeCase.importance.rawValue, 8)) "
                + "\(pad(tags, tagsWidth)) \(forgeCase.summary)")
        }
    }
}

extension OutputTree.Report {
    /// Tells the user about their own files in the tree, and about anything left behind.
    func printNotesIfLoud(_ quiet: Bool) {
        if !quiet { printNotes() }
    }

    func printNotes() {
        if !kept.isEmpty {
            let shown = kept.prefix(5).joined(separator: ", ") + (kept.count > 5 ? ", …" : "")
            printError("kept \(kept.count) file\(kept.count == 1 ? "" : "s") the forge did not write: \(shown)")
        }
        if let leftBehind {
            printError("warning: the old tree is left at \(leftBehind): it still holds something the forge did not write")
        }
    }
}

/// The column of case ids in `forge list` and the mint progress: the longest id.
let caseIDWidth = ForgeCase.catalogue.map(\.id.count).max() ?? 0

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
