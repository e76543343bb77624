import BER
import Foundation
import OpenSSLShim
import TestSupport
import XCTest
@testable import ReceiptVerifier

// MARK: Real receipts

/// The certificates of a PKCS#7 receipt, in the order the receipt lists them:
/// ContentInfo → [0] SignedData → certificates [0] IMPLICIT SET OF Certificate.
/// Test-only: the Receipt module owns the real container parser.
func certificates(inReceipt bytes: [UInt8]) throws -> [ArraySlice<UInt8>] {
    var reader = BERReader(bytes, rules: .ber)
    return try reader.readSequence { (contentInfo: inout BERReader) throws(BERError) -> [ArraySlice<UInt8>] in
        _ = try contentInfo.readObjectIdentifier()
        return try contentInfo.readConstructed(.context(0)) { (explicit: inout BERReader) throws(BERError) -> [ArraySlice<UInt8>] in
            try explicit.readSequence { (signedData: inout BERReader) throws(BERError) -> [ArraySlice<UInt8>] in
                _ = try signedData.readInt64()
                _ = try signedData.readElement(.set)
                _ = try signedData.readElement(.sequence)
                var found: [ArraySlice<UInt8>] = []
                try signedData.readConstructed(.context(0)) { (set: inout BERReader) throws(BERError) in
                    try set.forEachElement { found.append($0.encodedBytes) }
                }
                while !signedData.isAtEnd { _ = try signedData.readElement() }
                return found
            }
        }
    }
}

/// One real receipt with its certificates and the time to verify at.
struct RealChain {
    let entry: RealReceipts.Entry
    let certificates: [ArraySlice<UInt8>]
    let anchor: [UInt8]
    let creationDate: ASN1Time

    var name: String { entry.name }

    static func all(file: StaticString = #filePath, line: UInt = #line) throws -> [RealChain] {
        try RealReceipts.pkcs7Receipts(file: file, line: line).map { entry, bytes in
            RealChain(entry: entry, certificates: try ReceiptVerifierTests.certificates(inReceipt: bytes),
                      anchor: try RealReceipts.anchor(entry.trustAnchor!),
                      creationDate: try XCTUnwrap(rfc3339(entry.creationDate!), entry.creationDate!))
        }
    }

    static func anchor(_ name: String) throws -> [UInt8] {
        _ = try RealReceipts.requireDirectory()
        return try RealReceipts.anchor("anchors/\(name)")
    }
}

/// `YYYY-MM-DDThh:mm:ss(Z|±hhmm)` as in the manifest's creation dates.
func rfc3339(_ text: String) -> ASN1Time? {
    let digits = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int? { Int(String(decoding: digits[start..<start + count], as: UTF8.self)) }
    guard digits.count >= 20, let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2),
          let h = number(11, 2), let mi = number(14, 2), let s = number(17, 2) else { return nil }
    var seconds = ASN1Time(year: y, month: mo, day: d, hour: h, minute: mi, second: s).secondsSince1970
    if digits[19] == UInt8(ascii: "+") || digits[19] == UInt8(ascii: "-") {
        guard digits.count == 24, let oh = number(20, 2), let om = number(22, 2) else { return nil }
        let offset = Int64(oh * 3600 + om * 60)
        seconds -= digits[19] == UInt8(ascii: "+") ? offset : -offset
    } else if digits.count != 20 || digits[19] != UInt8(ascii: "Z") {
        return nil
    }
    return ASN1Time(secondsSince1970: seconds)
}

// MARK: OpenSSL oracle

enum OpenSSLOracle {
    static func info(_ der: some Collection<UInt8>) -> rf_x509_info? {
        var info = rf_x509_info()
        let bytes = Array(der)
        return rf_x509_info_get(bytes, bytes.count, &info) == 1 ? info : nil
    }

    static func name(_ der: some Collection<UInt8>, subject: Bool) -> [UInt8]? {
        output { rf_x509_name_der(Array(der), der.count, subject ? 1 : 0, $0, $1) }
    }

    static func serial(_ der: some Collection<UInt8>) -> [UInt8]? {
        output { rf_x509_serial(Array(der), der.count, $0, $1) }
    }

    static func rsaKey(_ der: some Collection<UInt8>) -> (modulus: [UInt8], exponent: [UInt8])? {
        guard let n = output({ rf_x509_rsa_key(Array(der), der.count, 0, $0, $1) }),
              let e = output({ rf_x509_rsa_key(Array(der), der.count, 1, $0, $1) }) else { return nil }
        return (n, e)
    }

    /// nil: absent; false: present; true: critical.
    static func extensionCriticality(_ der: some Collection<UInt8>, _ oid: OID) -> Bool? {
        let result = rf_x509_extension(Array(der), der.count, oid.description)
        return result < 0 ? nil : result == 1
    }

    static func verify(_ certificate: some Collection<UInt8>, signedBy issuer: some Collection<UInt8>) -> Bool {
        rf_x509_verify(Array(certificate), certificate.count, Array(issuer), issuer.count) == 1
    }

    static func output(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 8192)
        let n = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        return n < 0 ? nil : Array(buffer[0..<n])
    }
}

/// A throwaway RSA key made by OpenSSL, to sign synthetic certificates and raw blocks.
final class TestKey: @unchecked Sendable {
    // @unchecked: the OpenSSL key is only read after creation.
    let handle: UnsafeMutableRawPointer
    let modulus: [UInt8]
    let exponent: [UInt8]

    init(bits: Int = 1024) {
        let key = rf_x509_test_key_new(Int32(bits))!
        handle = key
        modulus = OpenSSLOracle.output { rf_x509_test_key_public(key, 0, $0, $1) }!
        exponent = OpenSSLOracle.output { rf_x509_test_key_public(key, 1, $0, $1) }!
    }

    deinit { rf_x509_test_key_free(handle) }

    var publicKey: RSAPublicKey { try! RSAPublicKey(modulus: modulus, exponent: exponent) }

    /// SubjectPublicKeyInfo DER.
    var subjectPublicKeyInfo: [UInt8] {
        spki(modulus: modulus, exponent: exponent)
    }

    func sign(_ message: [UInt8], digest: DigestAlgorithm = .sha256) -> [UInt8] {
        let name = digest.rawValue.uppercased()  // OpenSSL's digest names: MD5, SHA1, SHA256, SHA384, SHA512
        return OpenSSLOracle.output { rf_x509_test_sign(handle, name, message, message.count, $0, $1) }!
    }

    /// s with s^e mod n = block (block must be modulus-sized and below n).
    func rawSign(_ block: [UInt8]) -> [UInt8] {
        OpenSSLOracle.output { rf_x509_test_raw_sign(handle, block, block.count, $0, $1) }!
    }

    /// Keys shared by the tests (generation is the slow part).
    static let root = TestKey()
    static let intermediate = TestKey()
    static let leaf = TestKey()
    static let other = TestKey()
}

func spki(modulus: [UInt8], exponent: [UInt8], algorithm: OID = .rsaEncryption, nullParameters: Bool = true) -> [UInt8] {
    var key = BERWriter()
    key.appendSequence { sequence in
        sequence.appendUnsignedInteger(magnitude: modulus)
        sequence.appendUnsignedInteger(magnitude: exponent)
    }
    var writer = BERWriter()
    writer.appendSequence { info in
        info.appendSequence { identifier in
            identifier.appendObjectIdentifier(algorithm)
            if nullParameters { identifier.appendNull() }
        }
        info.appendBitString(BitString(bytes: key.bytes[...]))
    }
    return writer.bytes
}

// MARK: Synthetic certificates

func der(_ body: (inout BERWriter) -> Void) -> [UInt8] {
    var writer = BERWriter()
    body(&writer)
    return writer.bytes
}

func algorithmIdentifier(_ oid: OID, null: Bool = true) -> [UInt8] {
    der { $0.appendSequence { $0.appendObjectIdentifier(oid); if null { $0.appendNull() } } }
}

/// A Name of one attribute per RDN, PrintableString values unless `utf8`.
func nameDER(_ attributes: [(OID, String)], utf8: Bool = false) -> [UInt8] {
    der { writer in
        writer.appendSequence { rdns in
            for (oid, value) in attributes {
                rdns.appendConstructed(.set) { set in
                    set.appendSequence { attribute in
                        attribute.appendObjectIdentifier(oid)
                        if utf8 { attribute.appendUTF8String(value) } else { attribute.appendPrintableString(value) }
                    }
                }
            }
        }
    }
}

/// A Name of one commonName whose value is the encoding `value`, whatever it is.
func nameDER(commonNameValue value: [UInt8]) -> [UInt8] {
    der { writer in
        writer.appendSequence { rdns in
            rdns.appendConstructed(.set) { set in
                set.appendSequence { attribute in
                    attribute.appendObjectIdentifier(.commonName)
                    attribute.appendEncoded(value)
                }
            }
        }
    }
}

/// `count` SEQUENCEs of indefinite length nested in one another around a NULL.
func nestedIndefiniteSequences(_ count: Int) -> [UInt8] {
    var encoding = der { $0.appendNull() }
    for _ in 0..<count { encoding = [0x30, 0x80] + encoding + [0x00, 0x00] }
    return encoding
}

func nameDER(cn: String) -> [UInt8] { nameDER([(.countryName, "US"), (.organizationName, "Forge Test"), (.commonName, cn)]) }

func `extension`(_ oid: OID, critical: Bool = false, value: [UInt8]) -> [UInt8] {
    der { writer in
        writer.appendSequence { item in
            item.appendObjectIdentifier(oid)
            if critical { item.appendBoolean(true) }
            item.appendOctetString(value)
        }
    }
}

func basicConstraints(ca: Bool, pathLength: Int64? = nil) -> [UInt8] {
    `extension`(.basicConstraints, critical: true, value: der { writer in
        writer.appendSequence { sequence in
            if ca { sequence.appendBoolean(true) }
            if let pathLength { sequence.appendInteger(pathLength) }
        }
    })
}

func keyUsage(_ usage: KeyUsage) -> [UInt8] {
    var bytes = [UInt8(truncatingIfNeeded: usage.rawValue).bitReversed, UInt8(usage.rawValue >> 8).bitReversed]
    if bytes[1] == 0 { bytes.removeLast() }
    return `extension`(.keyUsage, critical: true, value: der { $0.appendBitString(BitString(bytes: bytes[...])) })
}

extension UInt8 {
    var bitReversed: UInt8 {
        var value: UInt8 = 0
        for bit in 0..<8 where self & (1 << bit) != 0 { value |= 0x80 >> bit }
        return value
    }
}

/// The parts of a certificate, each an encoding that tests may replace with a bad one.
struct CertificateSpec {
    var version: [UInt8] = der { $0.appendConstructed(.context(0)) { $0.appendInteger(2) } }
    var serial: [UInt8] = der { $0.appendInteger(0x1234) }
    var signature = algorithmIdentifier(.sha256WithRSAEncryption)
    var outerSignature: [UInt8]?
    var issuer = nameDER(cn: "Forge Test Root")
    var notBefore = ASN1Time(year: 2020, month: 1, day: 1)
    var notAfter = ASN1Time(year: 2040, month: 1, day: 1)
    var validity: [UInt8]?
    var subject = nameDER(cn: "Forge Test Leaf")
    var publicKeyInfo = TestKey.leaf.subjectPublicKeyInfo
    var extensions: [[UInt8]]? = [basicConstraints(ca: false), keyUsage(.digitalSignature)]
    var extraTBSFields: [UInt8] = []
    var trailingBytes: [UInt8] = []

    var tbs: [UInt8] {
        der { writer in
            writer.appendSequence { tbs in
                tbs.appendEncoded(version)
                tbs.appendEncoded(serial)
                tbs.appendEncoded(signature)
                tbs.appendEncoded(issuer)
                if let validity {
                    tbs.appendEncoded(validity)
                } else {
                    tbs.appendSequence { $0.appendTime(notBefore); $0.appendTime(notAfter) }
                }
                tbs.appendEncoded(subject)
                tbs.appendEncoded(publicKeyInfo)
                if let extensions {
                    tbs.appendConstructed(.context(3)) { explicit in
                        explicit.appendSequence { list in for item in extensions { list.appendEncoded(item) } }
                    }
                }
                tbs.appendEncoded(extraTBSFields)
            }
        }
    }

    /// The certificate, signed with `key` (nil: a dummy 128-byte signature).
    func encoded(signedBy key: TestKey? = nil, digest: DigestAlgorithm = .sha256) -> [UInt8] {
        let tbs = self.tbs
        let signatureValue = key.map { $0.sign(tbs, digest: digest) } ?? [UInt8](repeating: 0x5A, count: 128)
        return der { writer in
            writer.appendSequence { certificate in
                certificate.appendEncoded(tbs)
                certificate.appendEncoded(outerSignature ?? signature)
                certificate.appendBitString(BitString(bytes: signatureValue[...]))
            }
        } + trailingBytes
    }

    /// A CA certificate spec: `subject` signed by `issuer`, holding `key`.
    static func authority(_ subject: String, issuer: String, key: TestKey, pathLength: Int64? = nil) -> CertificateSpec {
        var spec = CertificateSpec()
        spec.subject = nameDER(cn: subject)
        spec.issuer = nameDER(cn: issuer)
        spec.publicKeyInfo = key.subjectPublicKeyInfo
        spec.extensions = [basicConstraints(ca: true, pathLength: pathLength), keyUsage([.keyCertSign, .cRLSign])]
        return spec
    }
}

/// Where `needle` first occurs in `haystack` (for expected error offsets).
func offset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}
