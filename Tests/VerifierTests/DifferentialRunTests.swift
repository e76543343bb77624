import BER
import ForgeSupport
import Foundation
import FuzzTargets
import Receipt
import ReceiptForge
import ReceiptVerifier
import TestSupport
import XCTest

/// `scripts/differential` at a small count: the same engine (the `differential`
/// product) over the forge's receipts and over receipts a second PKI made with openssl
/// commands alone (`scripts/independent-pki`, fresh keys every run).
final class DifferentialRunTests: XCTestCase {
    func testSmallRunFindsNoDifference() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("differential-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let pki = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"),
                                       [ChildProcess.packageRoot.appendingPathComponent("scripts/independent-pki").path,
                                        work.appendingPathComponent("pki").path])
        XCTAssertEqual(pki.status, 0, pki.standardError)
        let at = try XCTUnwrap(pki.standardOutput.split(separator: "\n").last.map(String.init), pki.standardOutput)
        var arguments = ["--count", "600", "--seed", "7", "--forge", "--out", work.appendingPathComponent("out").path]
        for kind in ["noattr", "attrs", "sha1"] {
            let pkiDirectory = work.appendingPathComponent("pki").path
            arguments += ["--source", "independent-\(kind)=\(pkiDirectory)/receipt-\(kind).der:\(pkiDirectory)/root.der:\(at)"]
        }
        let run = try ChildProcess.run(ChildProcess.product("differential"), arguments)
        XCTAssertEqual(run.status, 0, run.standardOutput + run.standardError
            + ((try? String(contentsOf: work.appendingPathComponent("out/differences.txt"), encoding: .utf8)) ?? ""))
        XCTAssertTrue(run.standardOutput.contains("600 mutants"), run.standardOutput)
        XCTAssertTrue(run.standardOutput.contains("0 differences"), run.standardOutput)
    }

    /// The structure-aware half edits certificates, which the signer does not sign, so
    /// verdicts come from certificate parsing, signer lookup and the chain; every edit
    /// changes the receipt, every kind of edit happens, and no mutant is a difference.
    func testCertificateEditsKeepTheSignature() throws {
        let receipt = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        var random = DeterministicRandom(seed: 11)
        var edits = 0
        var operations: Set<CertificateSetMutator.Operation> = []
        for _ in 0..<300 {
            guard let (bytes, edit) = CertificateSetMutator.mutate(receipt, random: &random) else { continue }
            edits += 1
            operations.insert(edit.operation)
            XCTAssertTrue(bytes != receipt, edit.description)
            let outcome = differential.compare(bytes, atSecondsSince1970: Fixtures.creationDate)
            if case .difference(let what) = outcome.agreement { XCTFail("\(edit): \(what)") }
        }
        XCTAssertGreaterThan(edits, 250)
        XCTAssertEqual(operations, Set(CertificateSetMutator.Operation.allCases))
    }

    /// Splicing re-encodes every enclosing length: replacing an element by a longer one
    /// gives a container that parses to the same certificates but that one.
    func testSpliceEncodesEnclosingLengthsAgain() throws {
        let receipt = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        let container = try PKCS7SignedData(bytes: receipt)
        let root = try XCTUnwrap(receipt.firstRange(of: container.certificates[2]))
        let longer = container.certificates[2] + container.certificates[2]  // the root twice
        let spliced = try XCTUnwrap(CertificateSetMutator.splice(receipt, replacing: root, with: longer))
        let reparsed = try PKCS7SignedData(bytes: spliced)
        XCTAssertEqual(reparsed.certificates, container.certificates + [container.certificates[2]])
        XCTAssertEqual(reparsed.payload, container.payload)
        XCTAssertNil(CertificateSetMutator.splice(receipt, replacing: root.lowerBound + 1..<root.upperBound, with: []))
    }
}

/// Findings of the structure-aware differential, pinned.
final class DifferentialFindingTests: XCTestCase {
    /// verifier-openssl-difference (parse/signature vs chain), first run of the certificate
    /// edits: the leaf's issuer countryName retagged from PrintableString to TeletexString.
    /// OpenSSL matches names in its canonical form (X509_NAME_cmp: the string types as
    /// text, ASCII case and spaces folded), so it still found the signer and refused the
    /// chain; we compared the value as bytes, found no signer and stopped earlier.
    /// Every string type OpenSSL canonicalises, in place of the PrintableString.
    func testRetaggedIssuerStringStillNamesTheSigner() throws {
        let receipt = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        let container = try PKCS7SignedData(bytes: receipt)
        let leaf = try XCTUnwrap(receipt.firstRange(of: container.certificates[0]))
        let country: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x06, 0x13, 0x02, 0x55, 0x53]
        // The issuer comes before the subject, so the first countryName is the issuer's.
        let at = try XCTUnwrap(Array(receipt[leaf]).firstRange(of: country)).lowerBound + leaf.lowerBound + 5
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        for tag: UInt8 in [0x0C, 0x14, 0x16] {
            var variant = receipt
            variant[at] = tag
            let outcome = differential.compare(variant, atSecondsSince1970: Fixtures.creationDate)
            XCTAssertEqual(outcome.openSSL, .chainInvalid, String(format: "tag %02x", tag))
            XCTAssertEqual(outcome.ourRefusal, .chain, String(format: "tag %02x: %@", tag, outcome.ours.description))
            XCTAssertEqual(outcome.agreement, .agree, String(format: "tag %02x", tag))
        }
    }

    /// The receipt run with constructed-bit mutants: OpenSSL's decoder never checks that
    /// bit of a SET OF or SEQUENCE OF, so it verifies a receipt whose digestAlgorithms,
    /// certificates, signerInfos, signed attribute values or signer's issuer Name are
    /// primitive. We hold the container to X.690 (8.10, 8.12): `malformed`, saying which
    /// form was found, and the differential counts it as the policy its whitelist names.
    func testContainerSetsStayConstructedAsAPolicy() throws {
        let receipt = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        var reader = BERReader(receipt, rules: PKCS7SignedData.rules)
        var contentInfo = try reader.readElement(.sequence).contentsReader()
        _ = try contentInfo.readObjectIdentifier()
        var explicit = try contentInfo.readElement(.context(0)).contentsReader()
        var signedData = try explicit.readElement(.sequence).contentsReader()
        _ = try signedData.readElement(.integer)
        let digestAlgorithms = try signedData.readElement(.set)
        _ = try signedData.readElement(.sequence)
        let certificates = try signedData.readElement(.context(0))
        let signerInfos = try signedData.readElement(.set)
        var infos = try signerInfos.contentsReader()
        var info = try infos.readElement(.sequence).contentsReader()
        _ = try info.readElement(.integer)
        var sid = try info.readElement(.sequence).contentsReader()
        let issuer = try sid.readElement(.sequence)
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        for (name, element) in [("digestAlgorithms", digestAlgorithms), ("certificates", certificates),
                                ("signerInfos", signerInfos), ("the signer's issuer", issuer)] {
            var variant = receipt
            variant[element.offset] &= ~0x20
            let outcome = differential.compare(variant, atSecondsSince1970: Fixtures.creationDate)
            XCTAssertEqual(outcome.openSSL, .verified, name)
            XCTAssertEqual(outcome.ours.reason, .malformed, "\(name): \(outcome.ours)")
            XCTAssertEqual(outcome.agreement, .whitelisted(.malformed), name)
            XCTAssertTrue(outcome.ours.detail.contains("found a primitive one") || outcome.ours.detail.contains("found [0]"),
                          "\(name): \(outcome.ours.detail)")
        }
    }

    func testCanonicalFormIsOpenSSLs() {
        typealias Attribute = DistinguishedName.Attribute
        XCTAssertEqual(Attribute.canonical("  Receipt\t\tForge  US "), "receipt forge us")
        XCTAssertEqual(Attribute.canonical("ÉCOLE"), "École", "only ASCII letters are folded")
        XCTAssertEqual(Attribute.canonical("a\u{00A0}b"), "a\u{00A0}b", "only ASCII whitespace collapses")
    }
}
