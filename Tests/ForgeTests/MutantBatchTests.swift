import BER
import Foundation
import OpenSSLShim
import Receipt
import ReceiptForge
import TestSupport
import XCTest
import ForgeSupport
import ReceiptMutation

/// `forge mutate`'s engine: signed structure-aware mutants of a case (MutantBatch over
/// ReceiptMutator and MutableReceipt). OpenSSL's PKCS7_verify is the independent judge
/// of the signatures; Python's jsonschema judges the files.
final class MutantBatchTests: XCTestCase {
    /// The issue's bar: 200 mutants of `valid`, all distinct, at least 90 % with a
    /// changed payload under a signature (and chain) OpenSSL accepts, every one judged by
    /// our verifier without a crash (a crash would end this test process).
    func testTwoHundredMutantsOfValidAreDistinctAndMostlySignedOverAChangedPayload() throws {
        let forge = Forge()
        let batch = try MutantBatch(source: .forgeCase(ForgeCase.valid), count: 200, seed: 1, forge: forge)
        XCTAssertEqual(batch.mutants.count, 200)
        XCTAssertEqual(Set(batch.mutants.map(\.file)).count, 200, "every mutant differs")
        XCTAssertEqual(Set(batch.mutants.map(\.id)).count, 200)
        let original = try XCTUnwrap(try PKCS7SignedData(bytes: try XCTUnwrap(forge.mint(ForgeCase.valid).receipt)).payload)
        var signedOverChangedPayload = 0
        var reasons: Set<VerdictReason> = []
        for mutant in batch.mutants {
            let container = try PKCS7SignedData(bytes: mutant.file)
            XCTAssertEqual(container.payload, mutant.payload, "\(mutant.id): the file carries the reported payload")
            XCTAssertEqual(mutant.record.payloadChanged, mutant.payload != original, mutant.id)
            let outcome = openSSLOutcome(mutant.file, anchor: forge.authority.root.certificate, at: forge.settings.creationDate)
            if mutant.payload != original && outcome == .verified { signedOverChangedPayload += 1 }
            XCTAssertFalse(mutant.record.operations.isEmpty, mutant.id)
            XCTAssertEqual(mutant.description.expected.reason, mutant.record.verifier.reason, mutant.id)
            reasons.insert(mutant.record.verifier.reason)
        }
        XCTAssertGreaterThanOrEqual(signedOverChangedPayload, 180, "at least 90 % changed and accepted by OpenSSL")
        // The mutants reach past the signature: some stay valid, others fail in the payload checks.
        XCTAssertTrue(reasons.contains(.valid), "\(reasons)")
        XCTAssertTrue(reasons.contains(.malformed), "\(reasons)")
        XCTAssertGreaterThanOrEqual(reasons.count, 4, "verdicts reached: \(reasons)")
    }

    func testTheSameSeedGivesTheSameFilesAndAnotherSeedOthers() throws {
        let first = try MutantBatch(source: .forgeCase(ForgeCase.valid), count: 12, seed: 42).files()
        let again = try MutantBatch(source: .forgeCase(ForgeCase.valid), count: 12, seed: 42).files()
        XCTAssertEqual(first.map(\.0), again.map(\.0))
        XCTAssertEqual(first.map(\.1), again.map(\.1))
        let other = try MutantBatch(source: .forgeCase(ForgeCase.valid), count: 12, seed: 43).files()
        let receipts = { (files: [(String, [UInt8])]) in files.filter { $0.0.hasSuffix("/receipt") }.map(\.1) }
        XCTAssertNotEqual(receipts(first), receipts(other))
        // A longer run begins with the shorter one's mutants.
        let longer = try MutantBatch(source: .forgeCase(ForgeCase.valid), count: 14, seed: 42).files()
        XCTAssertEqual(receipts(Array(longer)).prefix(12), receipts(first)[...])
    }

    /// Over many draws every kind of operation happens, and none leaves a receipt
    /// that cannot be encoded and signed.
    func testEveryOperationIsReached() throws {
        let minted = try XCTUnwrap(try Forge().mint(ForgeCase.named("subscriptions")!).receipt)
        let base = try XCTUnwrap(MutableReceipt(file: minted))
        let mutator = ReceiptMutator()
        var random = DeterministicRandom(seed: 9)
        var seen: Set<ReceiptMutator.Operation> = []
        for _ in 0..<600 {
            var receipt = base
            for change in mutator.mutate(&receipt, operations: 1, random: &random) { seen.insert(change.operation) }
            _ = receipt.payload
        }
        var receipt = base
        seen.insert(mutator.crossOver(&receipt, with: base, random: &random).operation)
        for _ in 0..<40 {
            var receipt = base
            seen.insert(mutator.crossOver(&receipt, with: base, random: &random).operation)
        }
        XCTAssertEqual(seen, Set(ReceiptMutator.Operation.allCases))
    }

    /// An untouched receipt gives back its payload byte for byte; a length-form change
    /// gives BER the reader still decodes to the same attributes.
    func testEncodingIsLosslessUntilChanged() throws {
        let minted = try XCTUnwrap(try Forge().mint(ForgeCase.valid).receipt)
        var receipt = try XCTUnwrap(MutableReceipt(file: minted))
        XCTAssertEqual(receipt.payload, try PKCS7SignedData(bytes: minted).payload)
        let attributes = receipt.receipt.attributes.filter { $0.type != AppReceipt.Field.inAppPurchase }
        receipt.encoding.constructed = .indefinite
        receipt.encoding.primitive = .longForm(octets: 4)
        XCTAssertNotEqual(receipt.payload, receipt.originalPayload)
        let decoded = try AppReceipt(decoding: receipt.payload, rules: .ber)
        XCTAssertEqual(decoded.attributes.filter { $0.type != AppReceipt.Field.inAppPurchase }, attributes)
        XCTAssertThrowsError(try AppReceipt(decoding: receipt.payload, rules: .der), "indefinite lengths are not DER")
    }

    /// case.json is an ordinary case file (forge check reads it), mutation.json matches
    /// its own schema, and the manifest lists every mutant.
    func testTheTreeMatchesTheSchemas() throws {
        let files = try MutantBatch(source: .forgeCase(ForgeCase.valid), count: 25, seed: 3).files()
        let text = { (suffix: String) in files.filter { $0.0.hasSuffix(suffix) }.map { String(decoding: $0.1, as: UTF8.self) } }
        for (schema, documents) in [("case", text("/case.json")), ("mutation", text("/mutation.json")),
                                    ("manifest", text("manifest.json"))] {
            XCTAssertFalse(documents.isEmpty, schema)
            let errors = try JSONSchemaOracle.errors(in: documents, schema: JSONSchemaOracle.schemaURL(schema))
            for problems in errors { XCTAssertEqual(problems, [], "\(schema).schema.json refuses a mutant's file") }
        }
        // Not vacuous: an operation the engine never names is refused.
        let broken = try XCTUnwrap(text("/mutation.json").first).replacingOccurrences(of: #""operation" : ""#, with: #""operation" : "x"#)
        let errors = try JSONSchemaOracle.errors(in: [broken], schema: JSONSchemaOracle.schemaURL("mutation"))
        XCTAssertFalse(errors[0].isEmpty)
    }

    /// A foreign receipt (any signer): checked as the app it names, on a seeded device
    /// whose hash is computed again, so an untouched payload would be valid.
    func testAForeignReceiptIsReboundToASeededDevice() throws {
        let minted = try XCTUnwrap(try Forge().mint(ForgeCase.named("copied-device")!).receipt)
        let batch = try MutantBatch(source: .receipt(bytes: minted, name: "Copied.receipt"), count: 30, seed: 5)
        XCTAssertEqual(batch.mutants.first?.id, "copied-receipt-mutant-001")
        XCTAssertTrue(batch.mutants.contains { $0.record.verifier.reason == .valid }, "the device hash was recomputed")
        XCTAssertThrowsError(try MutantBatch(source: .receipt(bytes: Array("not a receipt".utf8), name: "x"), count: 1, seed: 1))
    }
}
