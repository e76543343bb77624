import BER
import Crypto
import Receipt

/// `Validity ::= SEQUENCE { notBefore Time, notAfter Time }`, both ends inclusive
/// (RFC 5280 §4.1.2.5).
public struct Validity: Hashable, Sendable {
    /// The first instant the certificate is valid.
    public var notBefore: ASN1Time
    /// The last instant the certificate is valid.
    public var notAfter: ASN1Time

    /// A validity period from its two ends, both inclusive.
    public init(notBefore: ASN1Time, notAfter: ASN1Time) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// True when `time` is within the period, ends included.
    public func contains(_ time: ASN1Time) -> Bool { notBefore <= time && time <= notAfter }
}

/// An X.509 certificate (RFC 5280 §4.1) with an RSA key (or, when asked, a P-256 key), parsed the way Go's
/// crypto/x509 parses: the schema read field by field, the raw bytes that get
/// signed kept as received (`tbsBytes`; signatures are checked over these, never
/// over a re-encoding), and Go's strict checks — inner and outer signature algorithm
/// identical, no duplicate extensions, no trailing data, a non-negative serial.
///
/// Fields that are byte strings are slices of the buffer that was parsed (no copy),
/// so error offsets and `startIndex` values are positions in that buffer.
public struct Certificate: Sendable {
    /// The whole `Certificate` encoding as received.
    public var encoded: ArraySlice<UInt8> { storage.encoded }
    /// The `TBSCertificate` encoding as received: what the signature covers.
    public var tbsBytes: ArraySlice<UInt8> { storage.tbsBytes }
    /// 1, 2 or 3.
    public var version: Int { storage.fields.version }
    /// The serial number's magnitude, big-endian, no leading zero bytes (one 00 for zero).
    public var serialNumber: ArraySlice<UInt8> { storage.fields.serialNumber }
    /// The algorithm the issuer signed with (inner and outer identifiers are checked equal).
    public var signatureAlgorithm: SignatureAlgorithm { storage.signatureAlgorithm }
    /// Who issued the certificate.
    public var issuer: DistinguishedName { storage.fields.issuer }
    /// When the certificate is valid.
    public var validity: Validity { storage.fields.validity }
    /// Whom the certificate names.
    public var subject: DistinguishedName { storage.fields.subject }
    /// The subject's public key.
    public var publicKey: CertificatePublicKey { storage.fields.publicKey }
    /// The extensions the verifier reads, and every extension's identifier.
    public var extensions: CertificateExtensions { storage.fields.extensions }
    /// The signatureValue BIT STRING's bytes.
    public var signature: ArraySlice<UInt8> { storage.signature }
    /// SHA-256 of `encoded`: identifies the certificate in caches and anchor lookups.
    public var fingerprint: [UInt8] { storage.fingerprint }
    /// `CN=…` of the subject, or the whole subject when it has no common name.
    public var displayName: String { storage.displayName }

    /// The parsed fields, immutable and shared: a certificate is copied into every
    /// candidate chain of a verification, and with one reference a copy is one
    /// retain instead of one per field (swift-certificates boxes its `Certificate`
    /// the same way).
    private final class Storage: Sendable {
        let encoded: ArraySlice<UInt8>
        let tbsBytes: ArraySlice<UInt8>
        let fields: TBSFields
        let signatureAlgorithm: SignatureAlgorithm
        let signature: ArraySlice<UInt8>
        let fingerprint: [UInt8]
        let displayName: String

        init(encoded: ArraySlice<UInt8>, tbsBytes: ArraySlice<UInt8>, fields: TBSFields,
             signatureAlgorithm: SignatureAlgorithm, signature: ArraySlice<UInt8>) {
            self.encoded = encoded
            self.tbsBytes = tbsBytes
            self.fields = fields
            self.signatureAlgorithm = signatureAlgorithm
            self.signature = signature
            self.fingerprint = Array(SHA256.hash(data: encoded))
            self.displayName = fields.subject.commonName.map { "CN=\($0)" } ?? fields.subject.description
        }
    }

    private let storage: Storage

    /// True if both are the same parse (not merely equal bytes): a cheap first test
    /// before comparing fingerprints.
    func isSameParse(as other: Certificate) -> Bool { storage === other.storage }

    /// Parses exactly one certificate filling `bytes`. `rules` is `.ber` for
    /// certificates inside receipts; `.der` refuses every BER-only encoding.
    /// `keyAlgorithms` `.rsaAndP256` also accepts P-256 keys and ecdsa-with-SHA256
    /// signatures (App Store JWS chains); receipts use the default, RSA only.
    public init(_ bytes: ArraySlice<UInt8>, rules: BERRules = .ber,
                keyAlgorithms: CertificateKeyAlgorithms = .rsa) throws(CertificateError) {
        let root = ["certificate"]
        let (tbs, outerAlgorithm, signatureBits) = try decoding(root) { () throws(BERError) -> (BERElement, BERElement, BitString) in
            var reader = BERReader(bytes, rules: rules)
            let parts = try reader.readSequence { (certificate: inout BERReader) throws(BERError) -> (BERElement, BERElement, BitString) in
                let tbs = try withBERPath("tbsCertificate") { () throws(BERError) in try certificate.readElement(.sequence) }
                let algorithm = try withBERPath("signatureAlgorithm") { () throws(BERError) in try certificate.readElement(.sequence) }
                let signature = try withBERPath("signatureValue") { () throws(BERError) in try certificate.readBitString() }
                return (tbs, algorithm, signature)
            }
            try reader.finish()
            return parts
        }
        guard signatureBits.unusedBits == 0 else {
            throw CertificateError(.malformedEncoding, at: signatureBits.bytes.startIndex - 1, path: root + ["signatureValue"],
                                   "a signature BIT STRING has no unused bits")
        }
        let fields = try TBSFields(tbs, path: root + ["tbsCertificate"], keyAlgorithms: keyAlgorithms)

        // Go: "inner and outer signature algorithm identifiers don't match" — compared
        // as encoded, so NULL versus absent parameters is a mismatch too.
        guard fields.signatureAlgorithm.encodedBytes.elementsEqual(outerAlgorithm.encodedBytes) else {
            throw CertificateError(.algorithmMismatch, at: outerAlgorithm.offset, path: root + ["signatureAlgorithm"],
                                   "signatureAlgorithm differs from tbsCertificate.signature")
        }
        let algorithm = try AlgorithmIdentifier.read(outerAlgorithm, path: root + ["signatureAlgorithm"])

        storage = Storage(encoded: bytes, tbsBytes: tbs.encodedBytes, fields: fields,
                          signatureAlgorithm: try algorithm.signatureAlgorithm(at: outerAlgorithm.offset,
                                                                              path: root + ["signatureAlgorithm"],
                                                                              keyAlgorithms: keyAlgorithms),
                          signature: signatureBits.bytes)
    }

    /// Parses a certificate from a whole array (see the slice initialiser).
    public init(_ bytes: [UInt8], rules: BERRules = .ber, keyAlgorithms: CertificateKeyAlgorithms = .rsa) throws(CertificateError) {
        try self.init(bytes[...], rules: rules, keyAlgorithms: keyAlgorithms)
    }

    /// True if `subject` and `issuer` match (see `DistinguishedName.matches`).
    public var isSelfIssued: Bool { subject.matches(issuer) }

    /// Same certificate bytes: the same parse, or equal fingerprints.
    func isSameCertificate(as other: Certificate) -> Bool {
        isSameParse(as: other) || fingerprint == other.fingerprint
    }
}

/// The fields of a `TBSCertificate`, read and checked.
private struct TBSFields {
    var version = 1
    var serialNumber: ArraySlice<UInt8>
    var signatureAlgorithm: BERElement
    var issuer: DistinguishedName
    var validity: Validity
    var subject: DistinguishedName
    var publicKey: CertificatePublicKey
    var extensions = CertificateExtensions.none

    /// ```
    /// TBSCertificate ::= SEQUENCE {
    ///     version [0] EXPLICIT Version DEFAULT v1, serialNumber INTEGER,
    ///     signature AlgorithmIdentifier, issuer Name, validity Validity, subject Name,
    ///     subjectPublicKeyInfo SubjectPublicKeyInfo,
    ///     issuerUniqueID [1] IMPLICIT BIT STRING OPTIONAL,   -- v2, v3
    ///     subjectUniqueID [2] IMPLICIT BIT STRING OPTIONAL,  -- v2, v3
    ///     extensions [3] EXPLICIT Extensions OPTIONAL }      -- v3
    /// ```
    init(_ tbs: BERElement, path: [String], keyAlgorithms: CertificateKeyAlgorithms) throws(CertificateError) {
        struct Raw {
            var version: (value: Int64, offset: Int)?
            var serial: BERElement
            var signature: BERElement
            var issuer: BERElement
            var validity: Validity
            var subject: BERElement
            var publicKeyInfo: BERElement
            var uniqueIdentifier: BERElement?
            var extensions: BERElement?
        }
        let raw = try decoding(path) { () throws(BERError) -> Raw in
            var reader = try tbs.contentsReader()
            let version = try withBERPath("version") { () throws(BERError) -> (Int64, Int)? in
                guard let element = try reader.readOptionalElement(.context(0)) else { return nil }
                var explicit = try element.contentsReader()
                let value = try explicit.readInt64()
                try explicit.finish()
                return (value, element.offset)
            }
            let serial = try withBERPath("serialNumber") { () throws(BERError) in try reader.readElement(.integer) }
            let signature = try withBERPath("signature") { () throws(BERError) in try reader.readElement(.sequence) }
            let issuer = try withBERPath("issuer") { () throws(BERError) in try reader.readElement(.sequence) }
            let validity = try withBERPath("validity") { () throws(BERError) -> Validity in
                try reader.readSequence { (validity: inout BERReader) throws(BERError) -> Validity in
                    let notBefore = try withBERPath("notBefore") { () throws(BERError) in try validity.readTime() }
                    let notAfter = try withBERPath("notAfter") { () throws(BERError) in try validity.readTime() }
                    return Validity(notBefore: notBefore, notAfter: notAfter)
                }
            }
            let subject = try withBERPath("subject") { () throws(BERError) in try reader.readElement(.sequence) }
            let publicKeyInfo = try withBERPath("subjectPublicKeyInfo") { () throws(BERError) in try reader.readElement(.sequence) }
            var uniqueIdentifier: BERElement?
            for (number, name) in [(UInt32(1), "issuerUniqueID"), (2, "subjectUniqueID")] {
                let found = try withBERPath(name) { () throws(BERError) -> BERElement? in
                    let tag = BERTag.context(number, constructed: false)
                    guard let element = try reader.readOptionalElement(tag) else { return nil }
                    // UniqueIdentifier ::= BIT STRING: its unused-bits octet must be valid.
                    var bits = BERReader(element.encodedBytes, rules: reader.rules)
                    _ = try bits.readBitString(tag: tag)
                    return element
                }
                uniqueIdentifier = uniqueIdentifier ?? found
            }
            let extensions = try withBERPath("extensions") { () throws(BERError) in try reader.readOptionalElement(.context(3)) }
            try reader.finish()
            return Raw(version: version.map { ($0.0, $0.1) }, serial: serial, signature: signature, issuer: issuer,
                       validity: validity, subject: subject, publicKeyInfo: publicKeyInfo,
                       uniqueIdentifier: uniqueIdentifier, extensions: extensions)
        }

        if let (value, offset) = raw.version {
            // Version ::= INTEGER { v1(0), v2(1), v3(2) }
            guard (0...2).contains(value) else {
                throw CertificateError(.unsupportedVersion, at: offset, path: path + ["version"],
                                       "version \(value) is not v1 (0), v2 (1) or v3 (2)")
            }
            version = Int(value) + 1
        }
        if let unique = raw.uniqueIdentifier, version < 2 {
            throw CertificateError(.unsupportedVersion, at: unique.offset, path: path,
                                   "unique identifiers need a v2 or v3 certificate, this is v\(version)")
        }
        if let extensionsElement = raw.extensions, version < 3 {
            throw CertificateError(.unsupportedVersion, at: extensionsElement.offset, path: path + ["extensions"],
                                   "extensions need a v3 certificate, this is v\(version)")
        }

        let serialContents = try decoding(path + ["serialNumber"]) { () throws(BERError) in try raw.serial.integerContents() }
        guard serialContents.first! & 0x80 == 0 else {
            throw CertificateError(.invalidSerialNumber, at: raw.serial.offset, path: path + ["serialNumber"],
                                   "serial number is negative")
        }
        var magnitude = serialContents
        while magnitude.count > 1 && magnitude.first == 0 { magnitude = magnitude.dropFirst() }
        guard magnitude.count <= 20 else {
            throw CertificateError(.invalidSerialNumber, at: raw.serial.offset, path: path + ["serialNumber"],
                                   "serial number of \(magnitude.count) octets, more than 20 (RFC 5280 §4.1.2.2)")
        }
        serialNumber = magnitude

        signatureAlgorithm = raw.signature
        _ = try AlgorithmIdentifier.read(raw.signature, path: path + ["signature"])
        issuer = try DistinguishedName(raw.issuer, path: path + ["issuer"])
        validity = raw.validity
        subject = try DistinguishedName(raw.subject, path: path + ["subject"])
        publicKey = try CertificatePublicKey(subjectPublicKeyInfo: raw.publicKeyInfo, path: path + ["subjectPublicKeyInfo"],
                                             algorithms: keyAlgorithms)
        if let extensionsElement = raw.extensions {
            extensions = try CertificateExtensions(extensionsElement, path: path + ["extensions"])
        }
    }
}
