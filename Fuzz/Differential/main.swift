import ArgumentParser
import Foundation
import ForgeCA
import FuzzTargets
import ReceiptForge
import StoreKit2Forge

/// `scripts/differential`'s engine: mutants of signed receipts judged by our verifier
/// and by OpenSSL; every difference beyond the documented whitelist is written to disk.
@main
struct Differential: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "differential",
        abstract: "Mutate signed receipts (or StoreKit 2 JWS) and compare our verifier's answers with OpenSSL's (or Apple's).",
        discussion: """
            Receipts: sources are the forge's minted cases (--forge) and any receipt given \
            with --source NAME=RECEIPT:ANCHOR:SECONDS (DER receipt, DER anchor, validation \
            time in seconds since 1970). Each difference is written to \
            OUT/NNNNN-SOURCE.receipt and listed in OUT/differences.txt.

            --jws: the forge's StoreKit 2 cases are mutated (text, header, payload and \
            certificate mutants, most signed again) and each is judged by our verifier and \
            by Apple's SignedDataVerifier, run as ORACLE --jsonl (scripts/storekit2-oracle). \
            Each difference is written to OUT/NNNNN-SOURCE.jws and listed in \
            OUT/differences.txt.

            The exit status is 1 when there is a difference.
            """)

    @Option(help: "How many mutants.") var count = 100_000
    @Option(help: "Seed of the mutations (same seed, same mutants).") var seed: UInt64 = 1
    @Flag(help: "Mutate the forge's minted cases.") var forge = false
    @Option(help: "NAME=RECEIPT:ANCHOR:SECONDS, repeatable.") var source: [String] = []
    @Option(help: "Where differences are written.") var out = "Differences"
    @Flag(help: "Also list the kinds of whitelisted verdicts (documented exceptions) with their counts.")
    var listWhitelisted = false
    @Flag(help: "Mutate the forge's StoreKit 2 cases and compare with Apple's verifier.") var jws = false
    @Option(help: "With --jws: the oracle, run with --jsonl.") var oracle = "scripts/storekit2-oracle"
    @Option(help: "With --jws: mutants per oracle run.") var batch = 1_000

    func run() throws {
        if jws { return try runJWS() }
        var sources: [ReceiptDifferential.Source] = []
        if forge {
            let forge = Forge()
            for minted in try forge.mintAll() {
                guard let receipt = minted.receipt else { continue }  // `missing` has no file
                guard let anchor = forge.anchors[minted.description.trustAnchor] else {
                    throw ValidationError("case \(minted.forgeCase.id): no anchor \(minted.description.trustAnchor)")
                }
                sources.append(.init(name: minted.forgeCase.id, receipt: receipt, anchorDER: anchor,
                                     secondsSince1970: forge.settings.creationDate))
            }
        }
        for text in source {
            let parts = text.split(separator: "=", maxSplits: 1)
            let fields = parts.count == 2 ? parts[1].split(separator: ":") : []
            guard fields.count == 3, let seconds = Int64(fields[2]) else {
                throw ValidationError("--source \(text): expected NAME=RECEIPT:ANCHOR:SECONDS")
            }
            func read(_ path: Substring) throws -> [UInt8] {
                guard let data = FileManager.default.contents(atPath: String(path)) else {
                    throw ValidationError("--source \(text): cannot read \(path)")
                }
                return Array(data)
            }
            sources.append(.init(name: String(parts[0]), receipt: try read(fields[0]), anchorDER: try read(fields[1]),
                                 secondsSince1970: seconds))
        }
        guard !sources.isEmpty else { throw ValidationError("no sources: give --forge or --source") }
        let differential = try ReceiptDifferential(sources: sources)
        let tally = differential.run(count: count, seed: seed) { tally in
            FileHandle.standardError.write(Data("\(tally)\n".utf8))
        }
        if !tally.differences.isEmpty {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            var report = ""
            for (index, difference) in tally.differences.enumerated() {
                let name = String(format: "%05d-%@.receipt", index, difference.source)
                try Data(difference.bytes).write(to: URL(fileURLWithPath: out).appendingPathComponent(name))
                report += "\(name)\t\(difference.outcome.signature)\t\(difference.mutation)\t\(difference.outcome.ours.detail)\n"
            }
            try Data(report.utf8).write(to: URL(fileURLWithPath: out).appendingPathComponent("differences.txt"))
        }
        if listWhitelisted {
            for (kind, count) in tally.whitelistedKinds.sorted(by: { $0.value > $1.value }) { print("\(count)\t\(kind)") }
        }
        print("differential (seed \(seed), \(sources.count) sources): \(tally)")
        if !tally.differences.isEmpty { throw ExitCode(1) }
    }
}

extension Differential {
    func runJWS() throws {
        let forge = JWSForge()
        let authority = forge.authority
        var sources: [JWSDifferential.Source] = []
        for minted in try forge.mintAll() {
            let settings = minted.description.verifier
            let key = minted.jwsCase.flaw == .xcode ? authority.storeKit.key : authority.leaf.key
            sources.append(.init(name: minted.id, kind: minted.jwsCase.kind, jws: minted.jws, bundleId: settings.bundleId,
                                 appAppleId: settings.appAppleId, environment: settings.environment,
                                 roots: settings.rootCertificates.map { forge.anchors[$0]! },
                                 signer: { input in try key.signRaw(input) }))
        }
        let differential = try JWSDifferential(sources: sources)
        let tally = try differential.run(count: count, seed: seed, batch: batch, oracle: JWSDifferential.program(oracle)) { tally in
            FileHandle.standardError.write(Data("\(tally)\n".utf8))
        }
        if !tally.differences.isEmpty {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            var report = ""
            for (index, difference) in tally.differences.enumerated() {
                let mutant = difference.mutant
                let name = String(format: "%05d-%@.jws", index, mutant.source)
                try Data(mutant.jws.utf8).write(to: URL(fileURLWithPath: out).appendingPathComponent(name))
                report += "\(name)\tours \(mutant.ours.status.rawValue), Apple \(difference.apple.status)\t\(mutant.mutation)"
                    + "\t\(mutant.ours.detail)\t\(difference.apple.cause ?? "")\n"
            }
            try Data(report.utf8).write(to: URL(fileURLWithPath: out).appendingPathComponent("differences.txt"))
        }
        if listWhitelisted {
            for (pair, count) in tally.statuses.sorted(by: { $0.value > $1.value }) { print("\(count)\tours / Apple's: \(pair)") }
        }
        print("differential --jws (seed \(seed), \(sources.count) sources): \(tally)")
        if !tally.differences.isEmpty { throw ExitCode(1) }
    }
}
