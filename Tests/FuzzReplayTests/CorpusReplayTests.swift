import Foundation
import FuzzTargets
import XCTest

/// Replays every file under `Corpus/<target>/` through that target's `fuzzOne`, as
/// OpenSSL's `<target>-test` drivers do: every input a fuzzer ever kept — and every
/// crash, once fixed — is a permanent regression test. A property violation aborts
/// the test process with the target's stable signature.
final class CorpusReplayTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus")

    /// Replays `Corpus/<target>/` through `body`, each file named on standard error
    /// before it runs (`replaying …`): a trap's output ends with the input that caused it.
    func replay(_ target: String, minimum: Int, _ body: ([UInt8]) -> Void) throws {
        let files = try inputFiles(at: Self.corpus.appendingPathComponent(target).path)
        XCTAssertGreaterThanOrEqual(files.count, minimum, "Corpus/\(target) has too few inputs")
        try FuzzTargets.replay(files, through: body)
    }

    func testBERCorpus() throws {
        try replay("ber", minimum: 40, BERFuzz.fuzzOne)
    }

    func testReceiptCorpus() throws {
        try replay("receipt", minimum: 80, ReceiptFuzz.fuzzOne)
    }

    func testBigNumCorpus() throws {
        try replay("bignum", minimum: 150, BigNumFuzz.fuzzOne)
    }

    func testVerifierCorpus() throws {
        try replay("verifier", minimum: 50, VerifierFuzz.fuzzOne)
    }

    func testX509Corpus() throws {
        try replay("x509", minimum: 15, X509Fuzz.fuzzOne)
    }

    /// Crash reproducers live in `Corpus/<target>/findings/` (replayed above with the
    /// rest, and kept by `scripts/fuzz-merge`), named by the SHA-1 of their bytes.
    func testFindingsAreNamedByContentHash() throws {
        var count = 0
        for target in try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path) {
            let findings = Self.corpus.appendingPathComponent(target).appendingPathComponent("findings")
            guard FileManager.default.fileExists(atPath: findings.path) else { continue }
            for file in try inputFiles(at: findings.path) {
                let name = URL(fileURLWithPath: file).lastPathComponent
                XCTAssertEqual(name.count, 40, file)
                XCTAssertTrue(name.allSatisfy(\.isHexDigit), file)
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 5, "the reproducers of the findings so far")
    }
}
