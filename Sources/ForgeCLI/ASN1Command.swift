import ArgumentParser
import BER
import ForgeCommandLine

struct ASN1Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asn1",
        abstract: "Print the BER/DER tree of a file, like `openssl asn1parse -i`.",
        discussion: """
            Each line shows: byte offset, depth (d=), header length (hl=), contents length (l=, or \
            `indefinite`), cons/prim, the tag (class, number, universal name) and, for primitives, the \
            decoded value (INTEGER, OID with its name, strings, times, BOOLEAN; hex otherwise).

            FILE may be binary BER/DER, base64 text (as receipts are usually sent) or PEM; `-` reads \
            standard input. On malformed input the elements read so far are printed, then the error with \
            its code and byte offset, and the exit status is \(ForgeExit.malformedInput.rawValue).

            Examples:
              forge asn1 receipt
              forge asn1 --expand receipt      # also show the receipt payload inside its OCTET STRING
              forge asn1 --der --json cert.cer
            """
    )

    @Argument(help: "The file to dump (`-` for standard input).")
    var file: String

    @Flag(help: "Strict DER: refuse indefinite and non-minimal lengths, constructed strings, non-canonical BOOLEAN/INTEGER.")
    var der = false

    @Flag(help: "With --der, also require SET OF elements in DER order.")
    var sortedSets = false

    @Flag(help: "Show the elements inside OCTET STRINGs whose contents are themselves BER.")
    var expand = false

    @Flag(help: "Print JSON: {\"elements\": [...], \"error\": null | {code, offset, path, reason}}.")
    var json = false

    func validate() throws {
        if sortedSets && !der { throw ValidationError("--sorted-sets needs --der") }
    }

    func run() throws {
        let input = try InputFile.load(file, content: .any, context: "forge asn1")
        let rules = der ? BERRules(.der, requireSortedSets: sortedSets) : BERRules.ber
        let dump = BERDump(input.bytes, rules: rules, expandOctetStrings: expand)
        print(json ? dump.json : dump.text, terminator: "")
        if let error = dump.error {
            if !json { printError("forge asn1: \(input.name): \(error)") }
            throw ForgeExit.malformedInput.code
        }
    }
}
