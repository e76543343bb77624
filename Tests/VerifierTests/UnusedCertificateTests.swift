import BER
import ForgeCA
import FuzzTargets
import OpenSSLShim
import Receipt
import ReceiptForge
import ReceiptVerifier
import XCTest

/// The rule for certificates a verification never uses (`CertificateSyntax`): syntax
/// as `d2i_X509` checks it, no RFC 5280 semantics. Each change below is made to the
/// receipt's copy of the root (certificates[2], never on the chain: the anchor is the
/// caller's) and to the intermediate (on the chain), and both verdicts are pinned
/// against OpenSSL's `d2i_PKCS7` + `PKCS7_verify`.
final class UnusedCertificateTests: XCTestCase {
    /// A change to one TBSCertificate field (its whole TLV).
    struct Change: Sendable {
        let name: String
        let field: Int
        /// True where `d2i_X509` refuses the certificate (so `d2i_PKCS7` the receipt).
        let syntaxError: Bool
        let edit: @Sendable (inout [UInt8]) throws -> Void
    }

    static let changes: [Change] = [
        Change(name: "serial INTEGER with a redundant leading 00", field: 1, syntaxError: true) { serial in
            XCTAssertLessThan(serial[1], 0x7F)
            XCTAssertEqual(serial[2] & 0x80, 0, "a positive serial, so a leading 00 is redundant")
            serial = [0x02, serial[1] + 1, 0x00] + serial[2...]
        },
        Change(name: "negative serial", field: 1, syntaxError: false) { serial in serial[2] |= 0x80 },
        Change(name: "version 6", field: 0, syntaxError: false) { version in
            XCTAssertEqual(version, [0xA0, 0x03, 0x02, 0x01, 0x02])
            version[4] = 0x05
        },
        Change(name: "a letter in a UTCTime digit", field: 4, syntaxError: false) { validity in
            XCTAssertEqual(validity[2], 0x17, "notBefore is a UTCTime")
            validity[4] = UInt8(ascii: "A")
        },
        Change(name: "subjectPublicKey BIT STRING with 1 unused bit", field: 6, syntaxError: false) { info in
            var outer = BERReader(info, rules: .der)
            var reader = try outer.readElement(.sequence).contentsReader()
            _ = try reader.readElement(.sequence)
            let bits = try reader.readElement(.bitString)
            XCTAssertEqual(info[bits.contentsRange.lowerBound], 0)
            info[bits.contentsRange.lowerBound] = 1
        },
        Change(name: "an empty RDN in the subject", field: 5, syntaxError: false) { subject in
            var outer = BERReader(subject, rules: .der)
            var names = try outer.readElement(.sequence).contentsReader()
            var rdns: [[UInt8]] = []
            while !names.isAtEnd { rdns.append(Array(try names.readElement().encodedBytes)) }
            rdns[0] = [0x31, 0x00]
            var writer = BERWriter()
            writer.appendSequence { for rdn in rdns { $0.appendEncoded(rdn) } }
            subject = writer.bytes
        },
        Change(name: "an '@' in the subject's countryName PrintableString", field: 5, syntaxError: false) { subject in
            let country: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x06, 0x13, 0x02, 0x55, 0x53]
            let at = try XCTUnwrap(subject.firstRange(of: country)).lowerBound + 7
            subject[at] = UInt8(ascii: "@")
        },
        Change(name: "a primitive RDN SET in the subject (d2i never checks the bit of a SET OF)", field: 5,
               syntaxError: false) { subject in
            var outer = BERReader(subject, rules: .der)
            var names = try outer.readElement(.sequence).contentsReader()
            subject[try names.readElement(.set).offset] = 0x11
        },
        Change(name: "a primitive subject RDNSequence", field: 5, syntaxError: false) { subject in
            XCTAssertEqual(subject[0], 0x30)
            subject[0] = 0x10
        },
        Change(name: "a primitive SEQUENCE inside an RDN (an AttributeTypeAndValue)", field: 5, syntaxError: true) { subject in
            var outer = BERReader(subject, rules: .der)
            var names = try outer.readElement(.sequence).contentsReader()
            var rdn = try names.readElement(.set).contentsReader()
            subject[try rdn.readElement(.sequence).offset] = 0x10
        },
        Change(name: "a notBefore UTCTime tagged GeneralizedTime (13 octets: OpenSSL 3.0 reads it)", field: 4,
               syntaxError: false) { validity in
            XCTAssertEqual(validity[2], 0x17, "notBefore is a UTCTime")
            validity[2] = 0x18
        },
        Change(name: "an extnValue in constructed form (its DER read as segments and collected)", field: 7,
               syntaxError: false) { extensions in
            var outer = BERReader(extensions, rules: .der)
            var explicit = try outer.readElement(.context(3)).contentsReader()
            var list = try explicit.readElement(.sequence).contentsReader()
            var first = try list.readElement(.sequence).contentsReader()
            _ = try first.readObjectIdentifier()
            if try first.peekTag() == .boolean { _ = try first.readBoolean() }
            extensions[try first.readElement(.octetString).offset] = 0x24
        },
        Change(name: "a subject value as a constructed UTF8String of one segment", field: 5, syntaxError: false) { subject in
            let country: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x06, 0x13, 0x02, 0x55, 0x53]
            let value = try XCTUnwrap(subject.firstRange(of: country)).lowerBound + 5
            let spliced = CertificateSetMutator.splice(subject, replacing: value..<value + 4, with: [0x2C, 0x04, 0x0C, 0x02, 0x55, 0x53])
            subject = try XCTUnwrap(spliced)
        },
        Change(name: "sha256WithRSAEncryption with INTEGER parameters", field: 2, syntaxError: false) { algorithm in
            XCTAssertEqual(Array(algorithm.suffix(2)), [0x05, 0x00], "NULL parameters")
            algorithm = [0x30, algorithm[1] + 1] + algorithm[2..<algorithm.count - 2] + [0x02, 0x01, 0x00]
        },
    ]

    func testUnusedRootCopyNeedsSyntaxOnlyLikeOpenSSL() throws {
        let authority = Fixtures.authority
        for change in Self.changes {
            let root = try Self.changing(authority.root.certificate, change)
            XCTAssertEqual(Self.openSSLParses(root), !change.syntaxError, "d2i_X509, \(change.name)")
            XCTAssertEqual((try? CertificateSyntax.check(root, rules: PKCS7SignedData.rules, decoder: .openSSL3_0)) != nil, !change.syntaxError,
                           "CertificateSyntax, \(change.name)")
            XCTAssertThrowsError(try Certificate(root, rules: PKCS7SignedData.rules), "RFC 5280 refuses \(change.name)")

            let receipt = try Self.receipt(certificates: [authority.leaf.certificate, authority.intermediate.certificate, root])
            let outcome = try VerifierDifferential(anchorDER: authority.root.certificate)
                .compare(receipt, atSecondsSince1970: Fixtures.creationDate)
            XCTAssertEqual(outcome.agreement, .agree, "\(change.name): ours \(outcome.ours), OpenSSL \(outcome.openSSL)")
            if change.syntaxError {
                XCTAssertEqual(outcome.openSSL, .unparseable, change.name)
                XCTAssertEqual(outcome.ours.reason, .malformed, change.name)
                XCTAssertTrue(outcome.ours.detail.contains("signedData.certificates[2] does not parse"), outcome.ours.detail)
            } else {
                XCTAssertEqual(outcome.openSSL, .verified, change.name)
                XCTAssertEqual(outcome.ours.reason, .valid, "\(change.name): \(outcome.ours)")
            }
        }
    }

    /// On the chain the same changes are refused by both sides: ours because the
    /// intermediate is not an RFC 5280 certificate (at the parse), OpenSSL at the parse
    /// or because the changed TBSCertificate no longer matches its signature (chain).
    func testUsedIntermediateKeepsFullSemantics() throws {
        let authority = Fixtures.authority
        for change in Self.changes {
            let intermediate = try Self.changing(authority.intermediate.certificate, change)
            let receipt = try Self.receipt(certificates: [authority.leaf.certificate, intermediate, authority.root.certificate])
            let outcome = try VerifierDifferential(anchorDER: authority.root.certificate)
                .compare(receipt, atSecondsSince1970: Fixtures.creationDate)
            XCTAssertEqual(outcome.ours.reason, .malformed, "\(change.name): \(outcome.ours)")
            XCTAssertTrue(outcome.ours.detail.contains("signedData.certificates[1] does not parse"), outcome.ours.detail)
            XCTAssertEqual(outcome.openSSL, change.syntaxError ? .unparseable : .chainInvalid, change.name)
            if case .difference(let text) = outcome.agreement { XCTFail("\(change.name): \(text)") }
        }
    }

    // MARK: Building the inputs

    /// The forge's valid receipt payload signed again with `certificates` as the SET.
    static func receipt(certificates: [[UInt8]]) throws -> [UInt8] {
        let valid = try XCTUnwrap(try Fixtures.minted("valid").receipt)
        let payload = try XCTUnwrap(try PKCS7SignedData(bytes: valid).payload)
        return try ReceiptSigner(signer: Fixtures.authority.leaf, certificates: certificates).sign(Array(payload))
    }

    /// `certificate` with one TBSCertificate field changed and every length around it
    /// encoded again (the signature is not: it no longer covers the TBSCertificate).
    static func changing(_ certificate: [UInt8], _ change: Change) throws -> [UInt8] {
        var top = BERReader(certificate, rules: .der)
        var outer = try top.readElement(.sequence).contentsReader()
        let tbs = try outer.readElement(.sequence)
        let algorithm = try outer.readElement(.sequence)
        let signature = try outer.readElement(.bitString)
        var fields: [[UInt8]] = []
        var reader = try tbs.contentsReader()
        while !reader.isAtEnd { fields.append(Array(try reader.readElement().encodedBytes)) }
        try change.edit(&fields[change.field])
        var writer = BERWriter()
        writer.appendSequence { certificate in
            certificate.appendSequence { tbs in
                for field in fields { tbs.appendEncoded(field) }
            }
            certificate.appendEncoded(algorithm.encodedBytes)
            certificate.appendEncoded(signature.encodedBytes)
        }
        return writer.bytes
    }

    static func openSSLParses(_ der: [UInt8]) -> Bool {
        var info = rf_x509_info()
        return der.withUnsafeBufferPointer { rf_x509_info_get($0.baseAddress, $0.count, &info) } == 1
    }
}
