import ArgumentParser
import ForgeCommandLine
import ReceiptForge
import Foundation
import Receipt

/// `forge dump RECEIPT [--json]`
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a decoded receipt: container shape, every attribute, every in-app purchase.",
        discussion: """
            RECEIPT may be binary, base64 or PEM (`-` reads standard input), a real App Store or Xcode \
            receipt or a forged one; a bare payload (starting with a SET) is decoded too. Nothing is \
            verified: use OpenSSL or the verifier for that. Malformed input exits \(ForgeExit.malformedInput.rawValue) \
            with the error's code, byte offset and path.
            """
    )

    @Argument(help: "The receipt file (`-` for standard input).")
    var receipt: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let input = try InputFile.load(receipt, content: .any, context: "forge dump")
        let dump: ReceiptDump
        do {
            dump = try ReceiptDump(bytes: input.bytes)
        } catch {
            printError("forge dump: \(input.name): \(error)")
            throw ForgeExit.malformedInput.code
        }
        if json {
            print(String(decoding: try forgeJSON(dump), as: UTF8.self), terminator: "")
        } else {
            print(dump.text, terminator: "")
        }
    }
}
