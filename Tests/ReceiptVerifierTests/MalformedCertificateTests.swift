import BER
import TestSupport
import XCTest
@testable import ReceiptVerifier

/// Hostile and broken certificates: each must fail with a typed error that says
/// what and where (offset, path), never crash.
final class MalformedCertificateTests: XCTestCase {
    struct Case {
        var name: String
        var bytes: [UInt8]
        var code: CertificateError.Code
        var encodingCode: BERError.Code? = nil
        /// Expected path, dotted.
        var path: String
        /// Expected offset, when the case pins one.
        var offset: Int? = nil
    }

    static func encoded(_ change: (inout CertificateSpec) -> Void) -> [UInt8] {
        var spec = CertificateSpec()
        change(&spec)
        return spec.encoded()
    }

    static func cases() -> [Case] {
        let tbsPath = "certificate.tbsCertificate"
        let leafKey = TestKey.leaf
        let duplicate = basicConstraints(ca: false)
        var duplicateSpec = CertificateSpec()
        duplicateSpec.extensions = [duplicate, keyUsage(.digitalSignature), duplicate]
        let duplicateBytes = duplicateSpec.encoded()
        return [
            Case(name: "outer SET instead of SEQUENCE",
                 bytes: [0x31] + encoded { _ in }.dropFirst(), code: .malformedEncoding, encodingCode: .unexpectedTag,
                 path: "certificate", offset: 0),
            Case(name: "trailing byte after the certificate",
                 bytes: encoded { $0.trailingBytes = [0x00] }, code: .malformedEncoding, encodingCode: .trailingData,
                 path: "certificate"),
            Case(name: "an element after the extensions",
                 bytes: encoded { $0.extraTBSFields = der { $0.appendNull() } }, code: .malformedEncoding,
                 encodingCode: .trailingData, path: tbsPath),
            Case(name: "version 4 (value 3)",
                 bytes: encoded { $0.version = der { $0.appendConstructed(.context(0)) { $0.appendInteger(3) } } },
                 code: .unsupportedVersion, path: "\(tbsPath).version", offset: 8),
            Case(name: "version -1",
                 bytes: encoded { $0.version = der { $0.appendConstructed(.context(0)) { $0.appendInteger(-1) } } },
                 code: .unsupportedVersion, path: "\(tbsPath).version"),
            Case(name: "version of 9 octets",
                 bytes: encoded { $0.version = der { $0.appendConstructed(.context(0)) { $0.appendPrimitive(.integer, contents: [1] + [UInt8](repeating: 0, count: 8)) } } },
                 code: .malformedEncoding, encodingCode: .integerOverflow, path: "\(tbsPath).version"),
            Case(name: "v1 with extensions",
                 bytes: encoded { $0.version = [] }, code: .unsupportedVersion, path: "\(tbsPath).extensions"),
            Case(name: "negative serial",
                 bytes: encoded { $0.serial = der { $0.appendInteger(-5) } }, code: .invalidSerialNumber,
                 path: "\(tbsPath).serialNumber", offset: 13),
            Case(name: "serial of 21 octets",
                 bytes: encoded { $0.serial = der { $0.appendUnsignedInteger(magnitude: [UInt8](repeating: 0x11, count: 21)) } },
                 code: .invalidSerialNumber, path: "\(tbsPath).serialNumber"),
            Case(name: "empty serial",
                 bytes: encoded { $0.serial = [0x02, 0x00] }, code: .malformedEncoding, encodingCode: .emptyInteger,
                 path: "\(tbsPath).serialNumber"),
            Case(name: "serial missing (OCTET STRING)",
                 bytes: encoded { $0.serial = [0x04, 0x01, 0x01] }, code: .malformedEncoding, encodingCode: .unexpectedTag,
                 path: "\(tbsPath).serialNumber"),
            Case(name: "month 13",
                 bytes: encoded { $0.validity = der { $0.appendSequence { $0.appendPrimitive(.utcTime, contents: Array("201301000000Z".utf8)); $0.appendTime(ASN1Time(year: 2030, month: 1, day: 1)) } } },
                 code: .malformedEncoding, encodingCode: .invalidTime, path: "\(tbsPath).validity.notBefore"),
            Case(name: "time with an offset",
                 bytes: encoded { $0.validity = der { $0.appendSequence { $0.appendTime(ASN1Time(year: 2020, month: 1, day: 1)); $0.appendPrimitive(.utcTime, contents: Array("300101000000+0100".utf8)) } } },
                 code: .malformedEncoding, encodingCode: .invalidTime, path: "\(tbsPath).validity.notAfter"),
            Case(name: "validity as a SET",
                 bytes: encoded { $0.validity = der { $0.appendConstructed(.set) { $0.appendTime(ASN1Time(year: 2020, month: 1, day: 1)) } } },
                 code: .malformedEncoding, encodingCode: .unexpectedTag, path: "\(tbsPath).validity"),
            Case(name: "md5WithRSAEncryption",
                 bytes: encoded { $0.signature = algorithmIdentifier("1.2.840.113549.1.1.4") },
                 code: .unsupportedAlgorithm, path: "certificate.signatureAlgorithm"),
            Case(name: "ecdsa-with-SHA256",
                 bytes: encoded { $0.signature = algorithmIdentifier("1.2.840.10045.4.3.2", null: false) },
                 code: .unsupportedAlgorithm, path: "certificate.signatureAlgorithm"),
            Case(name: "signature parameters an INTEGER",
                 bytes: encoded { $0.signature = der { $0.appendSequence { $0.appendObjectIdentifier(.sha256WithRSAEncryption); $0.appendInteger(0) } } },
                 code: .invalidAlgorithmParameters, path: "\(tbsPath).signature.parameters"),
            Case(name: "outer algorithm differs from inner",
                 bytes: encoded { $0.outerSignature = algorithmIdentifier(.sha1WithRSAEncryption) },
                 code: .algorithmMismatch, path: "certificate.signatureAlgorithm"),
            Case(name: "outer NULL parameters, inner absent",
                 bytes: encoded { $0.signature = algorithmIdentifier(.sha256WithRSAEncryption, null: false); $0.outerSignature = algorithmIdentifier(.sha256WithRSAEncryption) },
                 code: .algorithmMismatch, path: "certificate.signatureAlgorithm"),
            Case(name: "EC public key",
                 bytes: encoded { $0.publicKeyInfo = spki(modulus: leafKey.modulus, exponent: leafKey.exponent, algorithm: "1.2.840.10045.2.1") },
                 code: .unsupportedAlgorithm, path: "\(tbsPath).subjectPublicKeyInfo.algorithm"),
            Case(name: "RSA key without NULL parameters",
                 bytes: encoded { $0.publicKeyInfo = spki(modulus: leafKey.modulus, exponent: leafKey.exponent, nullParameters: false) },
                 code: .invalidAlgorithmParameters, path: "\(tbsPath).subjectPublicKeyInfo.algorithm"),
            Case(name: "RSA-512",
                 bytes: encoded { $0.publicKeyInfo = spki(modulus: Array(leafKey.modulus.prefix(64)), exponent: [3]) },
                 code: .unsupportedKeySize, path: "\(tbsPath).subjectPublicKeyInfo.subjectPublicKey.modulus"),
            Case(name: "RSA-8192",
                 bytes: encoded { $0.publicKeyInfo = spki(modulus: [UInt8](repeating: 0xC3, count: 1024), exponent: [3]) },
                 code: .unsupportedKeySize, path: "\(tbsPath).subjectPublicKeyInfo.subjectPublicKey.modulus"),
            Case(name: "even modulus",
                 bytes: encoded { $0.publicKeyInfo = spki(modulus: Array(leafKey.modulus.dropLast()) + [0x10], exponent: [3]) },
                 code: .invalidPublicKey, path: "\(tbsPath).subjectPublicKeyInfo.subjectPublicKey.modulus"),
            Case(name: "exponent 1",
                 bytes: encoded { $0.publicKeyInfo = spki(modulus: leafKey.modulus, exponent: [1]) },
                 code: .invalidPublicKey, path: "\(tbsPath).subjectPublicKeyInfo.subjectPublicKey.publicExponent"),
            Case(name: "negative modulus",
                 bytes: encoded {
                     $0.publicKeyInfo = der { writer in
                         writer.appendSequence { info in
                             info.appendEncoded(algorithmIdentifier(.rsaEncryption))
                             info.appendBitString(BitString(bytes: der { $0.appendSequence { $0.appendPrimitive(.integer, contents: leafKey.modulus); $0.appendInteger(3) } }[...]))
                         }
                     }
                 },
                 code: .malformedEncoding, encodingCode: .integerOverflow, path: "\(tbsPath).subjectPublicKeyInfo.subjectPublicKey.modulus"),
            Case(name: "duplicate basicConstraints",
                 bytes: duplicateBytes, code: .duplicateExtension, path: "\(tbsPath).extensions[2]",
                 offset: offset(of: duplicate + keyUsage(.digitalSignature) + duplicate, in: duplicateBytes)! + duplicate.count + keyUsage(.digitalSignature).count),
            Case(name: "empty extensions",
                 bytes: encoded { $0.extensions = [] }, code: .invalidExtension, path: "\(tbsPath).extensions"),
            Case(name: "basicConstraints not a SEQUENCE",
                 bytes: encoded { $0.extensions = [`extension`(.basicConstraints, critical: true, value: [0x01, 0x01, 0xFF])] },
                 code: .invalidExtension, encodingCode: .unexpectedTag, path: "\(tbsPath).extensions[0].basicConstraints"),
            Case(name: "negative pathLenConstraint",
                 bytes: encoded { $0.extensions = [basicConstraints(ca: true, pathLength: -1)] },
                 code: .invalidExtension, encodingCode: .integerOverflow,
                 path: "\(tbsPath).extensions[0].basicConstraints.pathLenConstraint"),
            Case(name: "keyUsage with trailing data",
                 bytes: encoded { $0.extensions = [`extension`(.keyUsage, value: [0x03, 0x02, 0x07, 0x80, 0x05, 0x00])] },
                 code: .invalidExtension, encodingCode: .trailingData, path: "\(tbsPath).extensions[0].keyUsage"),
            Case(name: "extension value not an OCTET STRING",
                 bytes: encoded { $0.extensions = [der { $0.appendSequence { $0.appendObjectIdentifier("1.2.3.4"); $0.appendNull() } }] },
                 code: .malformedEncoding, encodingCode: .unexpectedTag, path: "\(tbsPath).extensions[0]"),
            Case(name: "PrintableString with '@'",
                 bytes: encoded { $0.subject = der { $0.appendSequence { $0.appendConstructed(.set) { $0.appendSequence { $0.appendObjectIdentifier(.commonName); $0.appendPrimitive(.printableString, contents: Array("a@b".utf8)) } } } } },
                 code: .malformedEncoding, encodingCode: .invalidString, path: "\(tbsPath).subject[0]"),
            Case(name: "empty RDN",
                 bytes: encoded { $0.issuer = der { $0.appendSequence { $0.appendConstructed(.set) { _ in } } } },
                 code: .malformedEncoding, encodingCode: .unexpectedTag, path: "\(tbsPath).issuer[0]"),
            Case(name: "signature with unused bits",
                 bytes: { var b = encoded { _ in }; b[b.count - 129] = 0x01; return b }(),
                 code: .malformedEncoding, path: "certificate.signatureValue"),
            Case(name: "name value of 60 nested indefinite SEQUENCEs (depth 65)",
                 bytes: encoded { $0.subject = nameDER(commonNameValue: nestedIndefiniteSequences(60)) }, code: .malformedEncoding, encodingCode: .depthLimitExceeded,
                 path: "\(tbsPath).subject[0]"),
        ]
    }

    func testTable() {
        for item in Self.cases() {
            XCTAssertThrowsError(try Certificate(item.bytes), item.name) { error in
                guard let error = error as? CertificateError else { return XCTFail("\(item.name): \(error)") }
                XCTAssertEqual(error.code, item.code, "\(item.name): \(error)")
                if let encodingCode = item.encodingCode {
                    XCTAssertEqual(error.encodingCode, encodingCode, "\(item.name): \(error)")
                }
                XCTAssertEqual(error.pathDescription, item.path, "\(item.name): \(error)")
                if let offset = item.offset { XCTAssertEqual(error.offset, offset, "\(item.name): \(error)") }
                XCTAssertTrue((0..<item.bytes.count).contains(error.offset), "\(item.name): offset \(error.offset)")
            }
        }
    }

    func testWellFormedVariantsParse() throws {
        XCTAssertNoThrow(try Certificate(CertificateSpec().encoded()))
        // Depth: a name value sits at depth 6, so 59 nested SEQUENCEs reach the limit (64) exactly.
        var deep = CertificateSpec()
        deep.subject = nameDER(commonNameValue: nestedIndefiniteSequences(59))
        XCTAssertNoThrow(try Certificate(deep.encoded()))
        // An unknown critical extension parses; policy refuses it (see ChainTests).
        var critical = CertificateSpec()
        critical.extensions = [`extension`("1.2.3.4", critical: true, value: [0x05, 0x00])]
        XCTAssertEqual(try Certificate(critical.encoded()).extensions.unhandledCriticalExtensions, ["1.2.3.4"])
        // DER rules refuse what BER allows: a long-form length.
        var longForm = CertificateSpec()
        longForm.serial = der { $0.appendPrimitive(.integer, contents: [0x12, 0x34], lengthForm: .longForm(octets: 1)) }
        let long = longForm.encoded()
        XCTAssertNoThrow(try Certificate(long, rules: .ber))
        XCTAssertThrowsError(try Certificate(long, rules: .der)) {
            XCTAssertEqual(($0 as? CertificateError)?.encodingCode, .nonMinimalLength)
        }
    }

    /// swift-asn1's drip-feed: every strict prefix of every real certificate fails
    /// cleanly with an encoding error whose offset lies inside the prefix.
    func testEveryPrefixOfRealCertificatesFails() throws {
        var seen = Set<[UInt8]>()
        var prefixes = 0
        for chain in try RealChain.all() {
            for der in chain.certificates.map(Array.init) where seen.insert(der).inserted {
                for length in 0..<der.count {
                    do {
                        _ = try Certificate(der[0..<length])
                        XCTFail("a \(length)-byte prefix parsed")
                    } catch {
                        XCTAssertEqual(error.code, .malformedEncoding, "prefix \(length)")
                        XCTAssertNotNil(error.encodingCode)
                        XCTAssertLessThanOrEqual(error.offset, length)
                        XCTAssertEqual(error.path.first, "certificate")
                    }
                    prefixes += 1
                }
            }
        }
        XCTAssertGreaterThan(prefixes, 9 * 1000)
    }
}
