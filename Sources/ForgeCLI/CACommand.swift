import ArgumentParser
import ReceiptForge
import Foundation
import ForgeCA
import ForgeCommandLine
import OwnedFileTree

/// `forge ca --out DIR [--swift FILE]`
struct CACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Generate a fresh throwaway test CA (new RSA-2048 and P-256 keys) into a directory.",
        discussion: """
            Writes DIR/{root,intermediate,leaf,unrelated-root,storekit}.{cer,pem,key.pem} (the RSA CA that signs \
            receipts), DIR/{jws-root,jws-intermediate,jws-leaf,jws-unrelated-root,jws-xcode}.{cer,pem,key.pem} (the \
            P-256 CA that signs StoreKit 2 JWS, with authority and subject key identifiers) and DIR/README.md. \
            The committed CA is Certs/; regenerate it (and the copies compiled into the forge) with \
            scripts/regenerate-certs, i.e. `forge ca --out Certs --swift Sources/ForgeCA/EmbeddedCertificateAuthority.swift \
            --jws-swift Sources/ForgeCA/EmbeddedJWSAuthority.swift`. \
            Every receipt and JWS minted afterwards changes: the keys are new.

            DIR must not exist, be empty, or be a CA directory the forge wrote (it holds .forge-owned, or \
            the forge's README.md); anything else is refused with exit 73. The new CA is built beside DIR, \
            synced to disk and swapped in whole, so DIR never holds a mix of old and new keys; files in DIR \
            that the forge did not write are kept. FILE given with --swift is replaced atomically.
            """
    )

    @Option(help: "Directory to write the CA into (created if needed).")
    var out: String

    @Option(help: "Also write the Swift source that embeds the CA in the forge.")
    var swift: String?

    @Option(name: .customLong("jws-swift"), help: ArgumentHelp("Also write the Swift source that embeds the P-256 JWS CA.",
                                                               valueName: "FILE"))
    var jwsSwift: String?

    func run() throws {
        let receipts: ReceiptAuthority
        let jws: JWSAuthority
        do {
            receipts = try ReceiptAuthority.generate()
            jws = try JWSAuthority.generate()
        } catch {
            printError("forge ca: generating the keys failed: \(error)")
            throw ForgeExit.internalFailure.code
        }
        let directory = URL(fileURLWithPath: out)
        let tree = OutputTree(directory: directory, ownership: .certificateAuthority)
        do throws(OutputError) {
            // Check the Swift file's place first, so a refusal there leaves the CA untouched.
            let source = swift.map { OutputFile(path: URL(fileURLWithPath: $0)) }
            let jwsSource = jwsSwift.map { OutputFile(path: URL(fileURLWithPath: $0)) }
            try source?.checkWritable()
            try jwsSource?.checkWritable()
            let files = AuthorityDirectory.files(receipts: receipts, jws: jws)
            try tree.replaceTree(with: files.sorted(by: { $0.key < $1.key })).printNotes()
            try source?.write(Array(receipts.embeddedSource.utf8))
            try jwsSource?.write(Array(jws.embeddedSource.utf8))
        } catch {
            printError("forge ca: \(error)")
            throw error.exit.code
        }
        printError("forge ca: wrote a new test CA to \(directory.path)" + ([swift, jwsSwift].compactMap { $0 }.map { " and \($0)" }.joined()))
    }
}
