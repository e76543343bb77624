import ArgumentParser
import ForgeCommandLine
import Foundation
import ReceiptForge
import ReceiptMutation

/// `forge mutate (--case NAME | RECEIPT) --count N [--seed S] [--out DIR]`
struct MutateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Write N signed structure-aware mutants of a receipt, as a fixture tree for other validators.",
        discussion: """
            Each mutant is the receipt changed at the ASN.1 and receipt level by one to three operations \
            (drop, duplicate, reorder, insert or retype attributes; new values, versions, string types and \
            date strings; in-app records nested or flattened; definite/indefinite and long-form lengths; \
            container layout, digest and certificate order; at least one change to the payload bytes), \
            encoded again and signed with the committed test CA: the signature and chain verify, so a \
            validator has to judge the payload itself.

            Output, under DIR (default Mutants/):
              DIR/ID/receipt, DIR/ID/receipt.b64   the mutant (ID: CASE-mutant-001, …)
              DIR/ID/case.json       an ordinary case file (Schemas/case.schema.json); its expected \
            verdict is the one this project's verifier gives: a mutant has no ground truth, so the \
            tree is a differential test (every case is tagged strict-policy, importance low)
              DIR/ID/mutation.json   what was changed, where, and our verifier's verdict and detail \
            (Schemas/mutation.schema.json)
              DIR/manifest.json, DIR/Certs/root.cer (.pem)   as in `forge mint` trees

            Run a validator on them with `forge check --fixtures DIR -- ./my-validator`; any crash or \
            hang there is a finding, a different verdict is worth a look.

            RECEIPT (any signer's) is checked as the app its own attributes 2 and 3 name, on a device \
            drawn from the seed, for which attribute 5 is computed again.

            The same source, --seed and --count give byte-identical files. DIR is handled as by `forge \
            mint --all`: it must be absent, empty or a tree the forge wrote; files the forge did not \
            write are kept.

            Examples:
              forge mutate --case valid --count 200
              forge mutate --case subscriptions --count 50 --seed 7 --out /tmp/mutants
              forge mutate Fixtures/valid/receipt --count 20
            """
    )

    @Option(name: .customLong("case"), help: ArgumentHelp("The catalogue case to mutate (see `forge list`).", valueName: "NAME"))
    var caseName: String?

    @Argument(help: ArgumentHelp("A receipt file to mutate instead of a case (binary or base64).", valueName: "RECEIPT"))
    var receipt: String?

    @Option(help: ArgumentHelp("How many mutants (1...100000).", valueName: "N"))
    var count: Int

    @Option(help: ArgumentHelp("Seed of the mutations.", valueName: "S"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Output directory.", valueName: "DIR"))
    var out = "Mutants"

    @Flag(help: "No summary on standard error.")
    var quiet = false

    func validate() throws {
        if (caseName == nil) == (receipt == nil) {
            throw ValidationError("give either --case NAME or a RECEIPT file")
        }
        if let caseName, ForgeCase.named(caseName) == nil {
            throw ValidationError("unknown case '\(caseName)'; cases: \(ForgeCase.catalogue.map(\.id).joined(separator: ", "))")
        }
        guard (1...100_000).contains(count) else { throw ValidationError("--count must lie between 1 and 100000") }
    }

    func run() throws {
        let source: MutantBatch.Source
        if let caseName, let forgeCase = ForgeCase.named(caseName) {
            source = .forgeCase(forgeCase)
        } else {
            let input = try InputFile.load(receipt ?? "-", content: .receipt, context: "forge mutate")
            source = .receipt(bytes: input.bytes, name: (input.name as NSString).lastPathComponent)
        }
        let batch: MutantBatch
        do {
            batch = try MutantBatch(source: source, count: count, seed: seed)
        } catch let error as MutantBatchError {
            printError("forge mutate: \(error)")
            throw ForgeExit.malformedInput.code
        } catch {
            printError("forge mutate: minting failed: \(error)")
            throw ForgeExit.internalFailure.code
        }
        let report = try writingFixtures(context: "forge mutate") { try batch.write(to: URL(fileURLWithPath: out)) }
        guard !quiet else { return }
        report.printNotes()
        var reasons: [String: Int] = [:]
        for mutant in batch.mutants { reasons[mutant.record.verifier.reason.rawValue, default: 0] += 1 }
        let changed = batch.mutants.filter(\.record.payloadChanged).count
        printError("forge mutate: \(batch.mutants.count) mutants of \(batch.sourceName) (seed \(seed)) in "
                   + "\(URL(fileURLWithPath: out).standardizedFileURL.path); \(changed) with a changed payload; our verdicts: "
                   + reasons.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }
}
