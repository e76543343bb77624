import BER
import FuzzTargets
import ReceiptForge
import SwiftASN1
import TestSupport
import XCTest
import ForgeSupport

/// Our tree must equal apple/swift-asn1's, accept/reject included: on any input in
/// DER rules against `DER.parse`, and in BER rules against `BER.parse`.
/// Differences by design are whitelisted by error code (`BERFuzz.ourStricterCodes`,
/// shared with the `ber` fuzz target): swift-asn1 checks only the structure when it
/// parses (INTEGER minimality, BOOLEAN, NULL, OID contents and constructed strings
/// are left to its typed decoders, which we check at parse time in `der`), and
/// allows tag numbers beyond 32 bits.
final class SwiftASN1DifferentialTests: XCTestCase {

    enum Verdict { case agree, whitelisted }

    /// `.agree` when both parsers agree in both rule sets; `.whitelisted` when we refuse,
    /// with a whitelisted code, what swift-asn1 accepts (any other difference fails here).
    func compare(_ input: [UInt8], _ label: @autoclosure () -> String) -> Verdict {
        let der = compare(Result { () throws(BERError) in try BERNode.parse(input, rules: BERFuzz.derRules) },
                          Result { try DER.parse(input) }, whitelist: BERFuzz.ourStricterCodes, "DER: " + label())
        let ber = compare(Result { () throws(BERError) in try BERNode.parse(input, rules: BERFuzz.berRules) },
                          Result { try BER.parse(input) }, whitelist: BERFuzz.ourStricterBERCodes, "BER: " + label())
        return der == .agree && ber == .agree ? .agree : .whitelisted
    }

    func compare(_ ours: Result<BERNode, BERError>, _ theirs: Result<ASN1Node, any Error>,
                 whitelist: Set<BERError.Code>, _ label: String) -> Verdict {
        switch (ours, theirs) {
        case (.success(let node), .success(let asn1)):
            XCTAssertTrue(BERFuzz.sameTree(node, asn1), "trees differ: \(label)")
        case (.failure, .failure):
            break
        case (.failure(let error), .success):
            XCTAssertTrue(whitelist.contains(error.code), "we reject (\(error)), swift-asn1 accepts: \(label)")
            return .whitelisted
        case (.success, .failure(let error)):
            XCTFail("we accept, swift-asn1 rejects (\(error)): \(label)")
        }
        return .agree
    }

    func testRealReceiptsAndTheirCertificates() throws {
        var inputs: [(String, [UInt8])] = []
        for (entry, receipt) in try RealReceipts.pkcs7Receipts() {
            inputs.append((entry.name, receipt))
            let tree = try BERNode.parse(receipt, rules: .ber, concatenatingStrings: true)
            inputs.append((entry.name + " as DER", tree.derEncoded))
            if let payload = RealReceiptEncodingTests.payload(of: tree) {
                inputs.append((entry.name + " payload", Array(payload)))
            }
        }
        XCTAssertGreaterThan(inputs.count, 0)
        for (name, input) in inputs {
            // Apple's own encodings: no stricter-by-design refusal may apply to them.
            XCTAssertEqual(compare(input, name), .agree, name)
        }
    }

    /// The hostile cases where we refuse, by design, what swift-asn1 accepts: the
    /// primitive-content rules it leaves to its typed decoders, and tag numbers beyond
    /// 32 bits. Every other case must agree.
    static let hostileCasesWeRefuseByDesign: Set<String> = [
        "high tag 2^32", "high tag of six digits", "constructed OCTET STRING", "BOOLEAN 01", "BOOLEAN of two octets",
        "empty INTEGER", "INTEGER 00 7F", "INTEGER FF 80", "NULL with contents", "empty OBJECT IDENTIFIER",
        "OID subidentifier with a leading 0x80", "OID with an unterminated subidentifier",
    ]

    func testHostileTable() {
        XCTAssertEqual(Self.hostileCasesWeRefuseByDesign.subtracting(HostileEncodingTests.cases.map(\.name)), [],
                       "names not in the hostile table")
        for testCase in HostileEncodingTests.cases {
            let expected: Verdict = Self.hostileCasesWeRefuseByDesign.contains(testCase.name) ? .whitelisted : .agree
            XCTAssertEqual(compare(bytes(hex: testCase.hex), testCase.name), expected, testCase.name)
        }
    }

    /// Fixed-seed mutations of a real certificate-bearing receipt: byte flips,
    /// truncations, insertions and deletions.
    func testMutations() throws {
        let (_, receipt) = try RealReceipts.firstPKCS7Receipt { $0.encoding == "definite" }
        let base = Array(try BERNode.parse(receipt, rules: .der).children[1].children[0].derEncoded)
        var generator = DeterministicRandom(seed: 0x5EED_BE12)
        var agreed = 0
        var whitelisted = 0
        for iteration in 0..<3_000 {
            var input = base
            for _ in 0..<generator.int(in: 1...3) {
                let position = generator.int(in: 0..<input.count)
                switch generator.int(in: 0..<4) {
                case 0: input[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1: input.removeSubrange(position...)
                case 2: input.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                default: input.remove(at: position)
                }
                if input.isEmpty { input = [0x30] }
            }
            switch compare(input, "mutation \(iteration)") {
            case .agree: agreed += 1
            case .whitelisted: whitelisted += 1
            }
        }
        // Counted once for this seed and these 3,000 mutations: 2 inputs are refused by
        // design (a whitelisted code) and swift-asn1 accepts them. A parser that starts
        // refusing more (or fewer) of them changes the count; rerun and check why.
        XCTAssertEqual(whitelisted, 2)
        XCTAssertEqual(agreed, 2_998)
    }
}
