import Foundation
@testable import FuzzTargets
import Receipt
import ReceiptForge
import ReceiptVerifier
import XCTest
import ReceiptMutation

/// The libFuzzer custom mutator of the `receipt` and `verifier` targets, called as
/// libFuzzer calls it: a buffer, its size and capacity, a seed.
final class StructureAwareMutatorTests: XCTestCase {
    static let valid: [UInt8] = try! Forge().mint(ForgeCase.valid).receipt!

    /// Runs the mutator on `input` with `seed`; returns the output and whether it fell
    /// back to the byte mutation.
    func mutate(_ input: [UInt8], seed: UInt32, capacity: Int = 16_384) -> (output: [UInt8], fellBack: Bool) {
        var buffer = input + [UInt8](repeating: 0, count: max(0, capacity - input.count))
        var fellBack = false
        let size = buffer.withUnsafeMutableBufferPointer { pointer in
            StructureAwareMutator.mutate(pointer.baseAddress!, input.count, capacity, seed) { _, size, _ in
                fellBack = true
                return size
            }
        }
        return (Array(buffer.prefix(size)), fellBack)
    }

    /// Most calls on a receipt give a re-signed receipt whose signature still verifies
    /// and whose payload changed; about one in four edits a certificate of the SET
    /// instead (payload untouched); the same seed gives the same mutant.
    func testMutantsOfAReceiptAreSignedAgainAndReproducible() throws {
        let verifier = VerifierFuzz.validator
        let original = try PKCS7SignedData(bytes: Self.valid)
        var structured = 0, changedAndVerified = 0, certificateEdits = 0
        for seed in UInt32(1)...80 {
            let (output, fellBack) = mutate(Self.valid, seed: seed)
            XCTAssertEqual(mutate(Self.valid, seed: seed).output, output, "seed \(seed) is deterministic")
            guard !fellBack else { continue }
            structured += 1
            let container = try PKCS7SignedData(bytes: output)
            if container.payload == original.payload {
                // A certificate edit, or a ReceiptMutator change of the container alone.
                if Set(container.certificates) != Set(original.certificates) { certificateEdits += 1 }
                continue
            }
            let verdict = verifier.validate(output, now: VerifierFuzz.now)
            if ![.signatureInvalid, .untrustedChain].contains(verdict.reason) { changedAndVerified += 1 }
        }
        XCTAssertGreaterThanOrEqual(structured, 60, "about 7 calls in 8 mutate the structure")
        XCTAssertGreaterThanOrEqual(certificateEdits, 8, "about a quarter of those edit a certificate")
        XCTAssertLessThanOrEqual(certificateEdits, structured / 2)
        XCTAssertGreaterThanOrEqual(changedAndVerified, (structured - certificateEdits) * 7 / 10)
    }

    /// Inputs that do not parse and mutants that would not fit go to the byte mutation.
    func testFallsBackToTheByteMutation() {
        XCTAssertTrue(mutate(Array("not a receipt".utf8), seed: 3).fellBack)
        XCTAssertTrue(mutate(Self.valid, seed: 2, capacity: Self.valid.count / 2).fellBack, "no room for the mutant")
    }

    /// A bare payload (the `receipt` target's other input) stays a payload.
    func testPayloadsStayPayloads() throws {
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: Self.valid).payload)
        var mutated = 0
        for seed in UInt32(1)...20 {
            let (output, fellBack) = mutate(payload, seed: seed)
            if fellBack { continue }
            XCTAssertNil(try? PKCS7SignedData(bytes: output), "seed \(seed): no container around a payload")
            mutated += 1
        }
        XCTAssertGreaterThan(mutated, 10)
    }

    func testCrossOverSplicesTwoReceipts() throws {
        let other = try XCTUnwrap(try Forge().mint(ForgeCase.named("subscriptions")!).receipt)
        var out = [UInt8](repeating: 0, count: 32_768)
        var spliced = 0
        for seed in UInt32(1)...12 {
            let size = Self.valid.withUnsafeBufferPointer { first in
                other.withUnsafeBufferPointer { second in
                    out.withUnsafeMutableBufferPointer {
                        StructureAwareMutator.crossOver(first.baseAddress!, first.count, second.baseAddress!, second.count,
                                                        $0.baseAddress!, $0.count, seed)
                    }
                }
            }
            if size > 0, (try? PKCS7SignedData(bytes: Array(out.prefix(size)))) != nil { spliced += 1 }
        }
        XCTAssertEqual(spliced, 12)
        let garbage = Array("x".utf8)
        let size = garbage.withUnsafeBufferPointer { first in
            out.withUnsafeMutableBufferPointer {
                StructureAwareMutator.crossOver(first.baseAddress!, 1, first.baseAddress!, 1, $0.baseAddress!, $0.count, 1)
            }
        }
        XCTAssertEqual(size, 0, "inputs that do not parse are not crossed")
    }

    /// The mutator opens an input once: a cached opening is the opening itself (also
    /// `nil` for bytes that do not open), and a full cache starts over, still right.
    func testOpenedInputsAreCachedByTheirBytes() throws {
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: Self.valid).payload)
        let inputs = [Self.valid, payload, Array("not a receipt".utf8), Self.valid + [0]]
        let cache = ParsedInputs(capacity: 3)
        for _ in 0..<3 {
            for input in inputs {
                XCTAssertEqual(cache.receipt(input), MutableReceipt(bytes: input))
            }
        }
        XCTAssertNotNil(cache.receipt(Self.valid))
        XCTAssertNil(cache.receipt(Array("not a receipt".utf8)))
    }

    /// The `verifier` target shares one SignatureCache between its two verifications
    /// and across inputs: on re-signed mutants and on broken copies of them, the
    /// cached verdicts and the differential outcome are those of an uncached run, and
    /// the chain's signatures are found in the cache.
    func testTheVerifierTargetsCacheChangesNoVerdict() throws {
        let uncached = ReceiptValidator(anchors: VerifierFuzz.validator.signedDataVerifier.chainVerifier.anchors,
                                        options: ReceiptValidator.Options(bundleIdentifier: "com.example.receiptforge",
                                                                          device: .skip))
        let creation = VerifierFuzz.settings.creationDate
        var inputs: [[UInt8]] = [Self.valid]
        for seed in UInt32(1)...12 {
            let mutant = mutate(Self.valid, seed: seed).output
            inputs.append(mutant)
            var broken = mutant
            broken[broken.count - 10] ^= 0x01  // the signature's last bytes
            inputs.append(broken)
        }
        let hitsBefore = VerifierFuzz.cache.statistics.hits
        for (index, input) in inputs.enumerated() {
            let cached = VerifierFuzz.validator.validate(input, now: VerifierFuzz.now)
            let fresh = uncached.validate(input, now: VerifierFuzz.now)
            XCTAssertEqual(cached.reason, fresh.reason, "input \(index)")
            XCTAssertEqual(cached.detail, fresh.detail, "input \(index)")
            let withCache = VerifierFuzz.differential.compare(input, atSecondsSince1970: creation, cache: VerifierFuzz.cache)
            let without = VerifierFuzz.differential.compare(input, atSecondsSince1970: creation)
            XCTAssertEqual(withCache.signature, without.signature, "input \(index)")
            XCTAssertEqual(withCache.agreement, without.agreement, "input \(index)")
            VerifierFuzz.fuzzOne(input)
        }
        XCTAssertGreaterThan(VerifierFuzz.cache.statistics.hits, hitsBefore + inputs.count,
                             "the chain's signatures are checked once, then found")
    }
}
