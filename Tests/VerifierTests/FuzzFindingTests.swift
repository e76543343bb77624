import BER
import ReceiptForge
import Foundation
import FuzzTargets
import OpenSSLShim
@testable import Receipt
import ReceiptVerifier
import TestSupport
import XCTest

/// Findings of the `verifier`, `x509` and `receipt` fuzz targets, each pinned by name (their
/// reproducers also live in Corpus/, replayed by CorpusReplayTests).
final class FuzzFindingTests: XCTestCase {
    /// A committed fuzz input, `Corpus/<path>`.
    static func corpusFile(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: ChildProcess.packageRoot.appendingPathComponent("Corpus/\(path)")))
    }

    /// Replays the committed `verifier` finding `name`: we refuse it as malformed, with
    /// `detail` in the reason, OpenSSL agrees (refusing it at the parse when
    /// `openSSLUnparseable`), and the target's checks pass on it. Returns its bytes.
    @discardableResult
    func assertMalformedLikeOpenSSL(_ name: String, detail: String, openSSLUnparseable: Bool = true,
                                    file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        let bytes = try Self.corpusFile("verifier/findings/\(name)")
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        let outcome = differential.compare(bytes, atSecondsSince1970: Fixtures.creationDate)
        if openSSLUnparseable { XCTAssertEqual(outcome.openSSL, .unparseable, file: file, line: line) }
        XCTAssertEqual(outcome.ours.reason, .malformed, "\(outcome.ours)", file: file, line: line)
        XCTAssertTrue(outcome.ours.detail.contains(detail), outcome.ours.detail, file: file, line: line)
        XCTAssertEqual(outcome.agreement, .agree, "OpenSSL: \(outcome.openSSL)", file: file, line: line)
        VerifierFuzz.fuzzOne(bytes)
        return bytes
    }

    static func openSSLParses(_ der: [UInt8]) -> Bool {
        var info = rf_x509_info()
        return der.withUnsafeBufferPointer { rf_x509_info_get($0.baseAddress, $0.count, &info) } == 1
    }

    /// x509-openssl-parse-difference (scripts/fuzz x509, first 60 s run): a Name value
    /// retagged as VideotexString parsed here but not in d2i_X509. Name values now
    /// follow OpenSSL's directory-string mask. Every universal tag in place of the
    /// countryName PrintableString: what we accept, OpenSSL parses too.
    func testNameValueTagsAcceptedOnlyWhereOpenSSLAcceptsThem() throws {
        let root = Fixtures.authority.root.certificate
        let country: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x06, 0x13, 0x02, 0x55, 0x53]
        let at = try XCTUnwrap(root.firstRange(of: country)).lowerBound + 5
        var accepted: [UInt8] = []
        for tag in UInt8(0x01)...0x1E where tag != 0x10 {
            var variant = root
            variant[at] = tag
            let ours = (try? Certificate(variant, rules: .der)) != nil
            if ours {
                accepted.append(tag)
                XCTAssertTrue(Self.openSSLParses(variant), String(format: "tag 0x%02x: we accept, d2i_X509 refuses", tag))
            }
            X509Fuzz.fuzzOne(variant)  // aborts on any property violation
        }
        XCTAssertEqual(accepted, [0x0C, 0x12, 0x13, 0x14, 0x16, 0x1E], "UTF8, Numeric, Printable, Teletex, IA5, BMP (2 octets: not Universal)")
    }

    func testCorpusReproducerOfTheVideotexFinding() throws {
        let bytes = try Self.corpusFile("x509/findings/4a57b80013bf7d2f97bd93b25fcfae43db7e4789")
        XCTAssertThrowsError(try Certificate(bytes, rules: .der))
        XCTAssertFalse(Self.openSSLParses(bytes))
        X509Fuzz.fuzzOne(bytes)
    }

    /// x509-openssl-parse-difference (scripts/fuzz x509, 600 s run): a mutation turned
    /// the extensions' [3] into a primitive [2], a subjectUniqueID whose first octet
    /// (0x30) is no valid unused-bits count. We took any [1]/[2] element; d2i_X509
    /// refuses a malformed BIT STRING there. Unique identifiers are now read as BIT
    /// STRINGs. Both unique identifiers, well-formed and not:
    func testUniqueIdentifiersMustBeBitStrings() throws {
        let bytes = try Self.corpusFile("x509/findings/6c43af025f84a9ddab6902ecbeac86e3cbaee871")
        XCTAssertThrowsError(try Certificate(bytes, rules: .der)) { error in
            XCTAssertEqual((error as? CertificateError)?.encodingCode, .invalidBitString)
            XCTAssertEqual((error as? CertificateError)?.pathDescription.hasSuffix("subjectUniqueID"), true,
                           "\(error)")
        }
        XCTAssertFalse(Self.openSSLParses(bytes))
        X509Fuzz.fuzzOne(bytes)
    }

    /// x509-openssl-parse-difference (scripts/fuzz x509, second 600 s run): the
    /// StoreKit certificate's "StoreKit" UTF8String retagged as UniversalString; its
    /// units (0x53746F72 …) are no Unicode code points, so d2i_X509 refuses it while
    /// we only checked the length. Variants of that value in the issuer's commonName
    /// of the committed StoreKit certificate (`Certs/storekit.cer`), re-encoded in
    /// DER, with OpenSSL as the oracle.
    func testBMPAndUniversalStringValuesMustBeUnicodeScalars() throws {
        let anchor = try BERNode.parse(Fixtures.authority.storeKit.certificate, rules: .der)
        // tbsCertificate.issuer.rdnSequence[0][0]: (type, value)
        let commonName = [0, 3, 0, 0]
        XCTAssertEqual(node(anchor, at: commonName + [0]),
                       BERNode(tag: .objectIdentifier, value: .primitive(OID.commonName.encoded[...])))
        func withIssuerCommonName(_ tag: UInt32, _ contents: [UInt8]) -> [UInt8] {
            replacing(anchor, at: commonName + [1], with: BERNode(tag: .universal(tag), value: .primitive(contents[...]))).derEncoded
        }
        let variants: [(tag: UInt32, contents: [UInt8], valid: Bool)] = [
            (12, Array("StoreKit".utf8), true),                         // UTF8String, as committed
            (28, Array("StoreKit".utf8), false),                        // the finding
            (28, [0, 0, 0, 0x53, 0, 0x10, 0xFF, 0xFF], true),             // U+0053 U+10FFFF
            (28, [0, 0, 0, 0x53, 0, 0x11, 0, 0], false),                  // U+110000
            (28, [0, 0, 0, 0x53, 0, 0, 0xD8, 0], false),                  // a surrogate
            (30, [0, 0x53, 0, 0x74, 0xFF, 0xFD, 0, 0x41], true),          // "St\u{FFFD}A"
            (30, [0, 0x53, 0, 0x74, 0xD8, 0, 0, 0x41], false),            // a lone surrogate
        ]
        for variant in variants {
            let certificate = withIssuerCommonName(variant.tag, variant.contents)
            let label = "tag \(variant.tag) " + hexString(variant.contents)
            XCTAssertEqual((try? Certificate(certificate, rules: .der)) != nil, variant.valid, "ours: \(label)")
            XCTAssertEqual(Self.openSSLParses(certificate), variant.valid, "d2i_X509: \(label)")
            X509Fuzz.fuzzOne(certificate)
        }
        X509Fuzz.fuzzOne(try Self.corpusFile("x509/findings/5cba0627af9f9aab99e3f19874852a1bae55b0e6"))
    }

    /// verifier-openssl-difference: untrusted-chain/unparseable (the corpus replay, once
    /// the differential compared the steps at which both sides refuse): a mutation
    /// retagged the certificates [0] as CRLs [1]. d2i_PKCS7 refuses X.509 certificates
    /// as CRLs; we kept the CRLs unparsed, found no signer and blamed the chain.
    /// Receipts carry no CRLs: they are now refused as malformed, before the signer.
    func testCRLsAreRefusedAsMalformed() throws {
        try assertMalformedLikeOpenSSL("85344b52603abd92e2e2a7cf966120fabc46b854", detail: "signedData.crls")
        // The valid receipt with its certificates moved into a CRLs field.
        let receipt = try BERNode.parse(try XCTUnwrap(try Fixtures.minted("valid").receipt), rules: .der)
        let signedData = node(receipt, at: [1, 0])
        let certificates = try XCTUnwrap(signedData.children.firstIndex { $0.tag == .context(0) })
        let moved = replacing(receipt, at: [1, 0, certificates],
                              with: BERNode(tag: .context(1), value: signedData.children[certificates].value)).derEncoded
        XCTAssertNotNil(try PKCS7SignedData(bytes: moved).crls)
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        let movedOutcome = differential.compare(moved, atSecondsSince1970: Fixtures.creationDate)
        XCTAssertEqual(movedOutcome.ours.reason, .malformed, "\(movedOutcome.ours)")
        XCTAssertEqual(movedOutcome.agreement, .agree, "OpenSSL: \(movedOutcome.openSSL)")
        VerifierFuzz.fuzzOne(moved)
    }

    /// scripts/differential (100,000 mutants, seed 20261126), receipts signed with signed
    /// attributes by the second PKI: d2i_PKCS7 decodes every attribute value as an ANY
    /// and refused (a) the contentType value's OBJECT IDENTIFIER with its last octet
    /// unfinished and (b) that value retagged as a constructed EXTERNAL whose contents are
    /// not elements; we read attribute values as opaque elements and reported the
    /// signature. (c) The unused root copy's signature parameters as a primitive SET
    /// (`11 00`): OpenSSL's ANY needs a SET constructed. `OpenSSLAny` now checks each.
    func testAttributeValuesAndParametersDecodeAsOpenSSLsAny() throws {
        try assertMalformedLikeOpenSSL("31775064220ef69a692f5a5aaf2638a1969ef21a", detail: "last subidentifier unfinished")
        try assertMalformedLikeOpenSSL("2756661a6b8ec717a43531188a16ef708d7e51da", detail: "signerInfos")
        try assertMalformedLikeOpenSSL("1abe7eb42d202e231ab2cbe339bbb430e0a8aaaf", detail: "a SEQUENCE or SET is constructed")
    }

    /// verifier-openssl-difference: untrusted-chain/unparseable (a 600-s `verifier` run
    /// with the custom mutator, 2026-11-26): a receipt whose digestAlgorithms entry
    /// carried an empty BIT STRING (`03 00`) as parameters. d2i_PKCS7 decodes ANY
    /// parameters by their type and refuses a BIT STRING without its unused-bits octet;
    /// we kept the element, found no signer and blamed the chain. AlgorithmIdentifier
    /// now makes OpenSSL's ANY contents checks. Each variant below, in place of the
    /// valid receipt's digest parameters, gets the same step from both.
    func testParametersOpenSSLCannotDecodeAreMalformed() throws {
        try assertMalformedLikeOpenSSL("e6e66913910cab662bfdad98a3c2659227fe01ed", detail: "parameters: BIT STRING")
        let receipt = try BERNode.parse(try XCTUnwrap(try Fixtures.minted("valid").receipt), rules: .der)
        let identifier = node(receipt, at: [1, 0, 1, 0])
        XCTAssertEqual(identifier.tag, .sequence)
        let differential = try VerifierDifferential(anchorDER: Fixtures.authority.root.certificate)
        let variants: [(tag: UInt32, contents: [UInt8], malformed: Bool)] = [
            (3, [], true), (3, [8], true), (3, [0], false), (3, [7, 0x80], false),
            (5, [0], true), (5, [], false),
            (1, [], true), (1, [0, 0], true), (1, [0x01], false),
            (2, [], true), (2, [0, 1], true), (2, [0xFF, 0x80], true), (2, [0, 0x80], false), (2, [0xFF, 0x00], false),
            (10, [0, 5], true), (10, [5], false),
            (6, [], true), (6, [0x80, 1], true), (6, [0x2A, 0x86], true), (6, [0x2A, 0x86, 0x80, 1], false),
            (30, [0], true), (30, [0, 0x41], false),
            (28, [0, 0, 0], true), (28, [0, 0, 0, 0x41], false),
        ]
        for variant in variants {
            let parameters = BERNode(tag: BERTag(.universal, variant.tag, constructed: false),
                                     value: .primitive(variant.contents[...]))
            let changed = BERNode(tag: .sequence, value: .constructed([identifier.children[0], parameters]))
            let bytes = replacing(receipt, at: [1, 0, 1, 0], with: changed).derEncoded
            let outcome = differential.compare(bytes, atSecondsSince1970: Fixtures.creationDate)
            let label = "tag \(variant.tag) " + hexString(variant.contents)
            XCTAssertEqual(outcome.ours.reason == .malformed, variant.malformed, "\(label): \(outcome.ours)")
            XCTAssertEqual(outcome.agreement, .agree, "\(label): OpenSSL \(outcome.openSSL), ours \(outcome.ours)")
            VerifierFuzz.fuzzOne(bytes)
        }
    }

    /// verifier-openssl-difference: signature-invalid/unparseable (scripts/fuzz-style run
    /// of `verifier` with byte mutation only, issue 15's with/without comparison): a
    /// StoreKit receipt whose digestAlgorithms entry carried a constructed NULL (`25 00`)
    /// as parameters. We kept any parameters element and failed later at the signature;
    /// d2i_PKCS7 refuses a constructed NULL. AlgorithmIdentifier now refuses a constructed
    /// element of a primitive-only universal type, so both stop at the parse step.
    func testAConstructedNullInAnAlgorithmIdentifierIsMalformed() throws {
        try assertMalformedLikeOpenSSL("4523fd8e26b77d9189d3489efb25530e7481605d", detail: "constructed",
                                       openSSLUnparseable: false)
        // Each primitive-only type in constructed form is refused; NULL and absent are read.
        for tag: UInt8 in [0x21, 0x22, 0x25, 0x26, 0x29, 0x2A, 0x2D] {
            var reader = BERReader([0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, tag, 0x00],
                                   rules: .ber)
            XCTAssertThrowsError(try reader.readAlgorithmIdentifier(), String(format: "tag 0x%02x", tag))
        }
        var null = BERReader([0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00], rules: .ber)
        XCTAssertTrue(try null.readAlgorithmIdentifier().hasNullParameters)
        var sequence = BERReader([0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x30, 0x00], rules: .ber)
        XCTAssertEqual(try sequence.readAlgorithmIdentifier().parameters, [0x30, 0x00], "other parameters stay raw")
    }

    /// verifier-openssl-difference: untrusted-chain/unparseable (issue 15's with/without
    /// comparison, byte mutation, after 585 s): an smimeCapabilities signed attribute
    /// whose value starts `d0 8c`, a header with twelve length octets. d2i_PKCS7 parses
    /// every attribute value and refuses it; we kept signedAttrs as raw bytes, looked for
    /// the signer first and blamed the chain. Attributes (signed and unsigned) are now
    /// read as SET OF SEQUENCE { OID, SET OF element } when the SignerInfo is parsed.
    func testASignedAttributeValueThatDoesNotParseIsMalformed() throws {
        try assertMalformedLikeOpenSSL("0580e97fc5e475e59c35c9c071d7b2efa548d108", detail: "signedAttrs")
        // Well-formed attributes of any type still parse; an attribute without its SET
        // of values, or a value cut short or with an impossible length, does not.
        let digest: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        func signerInfo(_ attributes: [UInt8]) -> [UInt8] {
            let contents: [UInt8] = [0x02, 0x01, 0x01, 0x80, 0x01, 0x07] + digest + attributes + digest + [0x04, 0x01, 0x00]
            return [0x30, UInt8(contents.count)] + contents
        }
        let good: [UInt8] = [0xA0, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x04, 0x03, 0x31, 0x03, 0x0C, 0x01, 0x41]
        var reader = BERReader(signerInfo(good), rules: .ber)
        XCTAssertEqual(try PKCS7SignedData.parseSignerInfo(&reader).signedAttributes, good)
        for bad: [UInt8] in [[0xA0, 0x07, 0x30, 0x05, 0x06, 0x03, 0x55, 0x04, 0x03],
                             [0xA0, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x04, 0x03, 0x31, 0x03, 0x0C, 0x02, 0x41],
                             [0xA0, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x04, 0x03, 0x31, 0x03, 0xD0, 0x8C, 0x41]] {
            var reader = BERReader(signerInfo(bad), rules: .ber)
            XCTAssertThrowsError(try PKCS7SignedData.parseSignerInfo(&reader), "\(bad)")
        }
    }

    /// verifier-openssl-difference: untrusted-chain/unparseable (scripts/fuzz-campaign
    /// verifier, structure-aware mutation, 2026-11-23, after about 8 CPU-minutes): the
    /// signer's serialNumber encoded as `02 04 00 00 00 00`, an INTEGER with redundant
    /// leading octets. d2i_PKCS7 refuses it (X.690 8.3.2 forbids them in BER too); we
    /// read its magnitude, found no certificate with serial 0 and blamed the chain. The
    /// container is now read with minimal INTEGERs (`PKCS7SignedData.rules`), so both
    /// stop at the parse step; the payload keeps BER's leniency.
    func testARedundantLeadingOctetInAContainerIntegerIsMalformed() throws {
        try assertMalformedLikeOpenSSL("eca363b74f0ba16e53e0bcb5c26c88d112bf6ab6", detail: "serialNumber")
        let digest: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        let name: [UInt8] = [0x30, 0x0E, 0x31, 0x0C, 0x30, 0x0A, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0C, 0x03, 0x41, 0x42, 0x43]
        func signerInfo(version: [UInt8], serial: [UInt8]) -> [UInt8] {
            let sid = name + serial
            let contents = version + [0x30, UInt8(sid.count)] + sid + digest + digest + [0x04, 0x01, 0x00]
            return [0x30, UInt8(contents.count)] + contents
        }
        let minimal = signerInfo(version: [0x02, 0x01, 0x01], serial: [0x02, 0x02, 0x00, 0x80])
        var reader = BERReader(minimal, rules: PKCS7SignedData.rules)
        guard case .issuerAndSerialNumber(_, let serial) = try PKCS7SignedData.parseSignerInfo(&reader).signerIdentifier else {
            return XCTFail("no issuerAndSerialNumber")
        }
        XCTAssertEqual(serial, [0x80])
        for (field, padded) in [("version", signerInfo(version: [0x02, 0x02, 0x00, 0x01], serial: [0x02, 0x01, 0x05])),
                                ("serialNumber", signerInfo(version: [0x02, 0x01, 0x01], serial: [0x02, 0x03, 0x00, 0x00, 0x05]))] {
            var strict = BERReader(padded, rules: PKCS7SignedData.rules)
            XCTAssertThrowsError(try PKCS7SignedData.parseSignerInfo(&strict), field) { error in
                XCTAssertEqual((error as? BERError)?.code, .nonMinimalInteger, field)
                XCTAssertTrue("\(error)".contains(field), "\(error)")
            }
            var lenient = BERReader(padded, rules: .ber)
            XCTAssertNoThrow(try PKCS7SignedData.parseSignerInfo(&lenient), "plain BER rules keep accepting a padded \(field)")
        }
    }

    /// receipt-date-difference (scripts/fuzz-campaign receipt, after about 4 CPU-minutes):
    /// a bare payload whose original purchase date is `0000-01-01T13:59:59.123456789+1400`,
    /// an instant in year -1. Its `utcText` came out as `00-1-12-31T23:59:59Z`, which no
    /// parser reads. Dates whose instant lies outside years 0000–9999 in UTC are refused
    /// now (`ReceiptDateTests`), so the payload is refused where the date lies, as a
    /// date with a 13th month is.
    func testAYear0000DateWithAPlus14OffsetIsRefusedWhereItLies() throws {
        let bytes = try Self.corpusFile("receipt/findings/430a4d8de26c022f204b57904b1f452bc3ad4007")
        XCTAssertThrowsError(try AppReceipt(decoding: bytes, rules: .ber)) { error in
            let error = error as? BERError
            XCTAssertEqual(error?.code, .invalidTime)
            XCTAssertEqual(error?.offset, 12)
            XCTAssertTrue("\(String(describing: error))".contains("attributes[0].value"), "\(String(describing: error))")
        }
        var fixed = bytes
        fixed.replaceSubrange(12 + 2..<12 + 2 + 4, with: Array("2020".utf8))
        XCTAssertEqual(try AppReceipt(decoding: fixed, rules: .ber).originalPurchaseDate?.utcText, "2019-12-31T23:59:59Z")
        ReceiptFuzz.fuzzOne(bytes)
    }

    /// The node at `path` (child indices from `root`).
    func node(_ root: BERNode, at path: [Int]) -> BERNode {
        path.reduce(root) { $0.children[$1] }
    }

    /// `root` with the node at `path` replaced.
    func replacing(_ root: BERNode, at path: [Int], with replacement: BERNode) -> BERNode {
        guard let index = path.first else { return replacement }
        var children = Array(root.children)
        children[index] = replacing(children[index], at: Array(path.dropFirst()), with: replacement)
        return BERNode(tag: root.tag, value: .constructed(BERNodeList(children)))
    }
}
