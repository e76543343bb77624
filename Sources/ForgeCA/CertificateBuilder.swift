import BER
import Receipt

/// Builds an X.509 `Name` the way Apple's are: one attribute per RDN, in the order
/// given; `countryName` as PrintableString, everything else as UTF8String.
public struct NameBuilder: Hashable, Sendable {
    public var attributes: [(OID, String)]

    public init(_ attributes: [(OID, String)]) {
        self.attributes = attributes
    }

    public static func == (lhs: NameBuilder, rhs: NameBuilder) -> Bool { lhs.encoded == rhs.encoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

    public var encoded: [UInt8] {
        var writer = BERWriter()
        writer.appendSequence { name in
            for (oid, value) in attributes {
                name.appendConstructed(.set) { rdn in
                    rdn.appendSequence { pair in
                        pair.appendObjectIdentifier(oid)
                        if oid == .countryName { pair.appendPrintableString(value) } else { pair.appendUTF8String(value) }
                    }
                }
            }
        }
        return writer.bytes
    }
}

/// What a certificate says; `build(signedBy:)` encodes the TBSCertificate with
/// `BERWriter` and signs it with the issuer's key.
public struct CertificateTemplate: Sendable {
    public enum Role: Sendable {
        /// A root CA: basicConstraints CA:TRUE, keyUsage keyCertSign+cRLSign (both critical).
        case rootCA
        /// An intermediate CA: basicConstraints CA:TRUE pathlen:0, keyUsage keyCertSign+cRLSign.
        case intermediateCA
        /// An end entity: basicConstraints CA:FALSE, keyUsage digitalSignature (both critical).
        case endEntity
        /// Xcode's StoreKit certificate: self-signed, CA:TRUE, keyUsage digitalSignature +
        /// keyCertSign, extendedKeyUsage codeSigning (all critical).
        case selfSignedSigner
        /// A TLS server: basicConstraints CA:FALSE, keyUsage digitalSignature (both
        /// critical), extendedKeyUsage serverAuth; its names in `subjectAlternativeNames`.
        case tlsServer
    }

    /// A `GeneralName` of RFC 5280 4.2.1.6, as the subject alternative names and the name
    /// constraints of TLS certificates use it.
    public enum GeneralName: Hashable, Sendable {
        /// `dNSName` [2]: a host name (`api.storekit.apple.com`).
        case dnsName(String)
        /// `iPAddress` [7]: 4 or 16 bytes in a subject alternative name; in a name
        /// constraint the address then its mask (8 or 32 bytes).
        case ipAddress([UInt8])

        func append(to writer: inout BERWriter) {
            switch self {
            case .dnsName(let name): writer.appendPrimitive(.context(2, constructed: false), contents: Array(name.utf8))
            case .ipAddress(let bytes): writer.appendPrimitive(.context(7, constructed: false), contents: bytes)
            }
        }
    }

    public var serialNumber: UInt64
    public var issuer: NameBuilder
    public var subject: NameBuilder
    public var notBefore: ASN1Time
    public var notAfter: ASN1Time
    public var role: Role
    /// Apple's marker extensions (value NULL, not critical), e.g. the WWDR intermediate's
    /// 1.2.840.113635.100.6.2.1 or the receipt signer's 1.2.840.113635.100.6.11.1.
    public var markerExtensions: [OID]
    /// The subjectAltName extension's names (not critical); none when empty.
    public var subjectAlternativeNames: [GeneralName]
    /// A CA's nameConstraints permittedSubtrees (critical, as RFC 5280 4.2.1.10 asks): the
    /// only names the certificates it issues may hold; none when empty.
    public var permittedSubtrees: [GeneralName]

    public init(serialNumber: UInt64, issuer: NameBuilder, subject: NameBuilder,
                notBefore: ASN1Time, notAfter: ASN1Time, role: Role, markerExtensions: [OID] = [],
                subjectAlternativeNames: [GeneralName] = [], permittedSubtrees: [GeneralName] = []) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.role = role
        self.markerExtensions = markerExtensions
        self.subjectAlternativeNames = subjectAlternativeNames
        self.permittedSubtrees = permittedSubtrees
    }

    /// The DER certificate for the public key `subjectPublicKeyInfo`, signed by
    /// `issuerKey` (the subject's own key for a self-signed certificate) with its
    /// algorithm (`SigningKey.certificateSignatureAlgorithm`). `issuerPublicKeyInfo`
    /// gives the authority key identifier (nil: self-signed, use the subject's).
    public func build<Key: SigningKey>(subjectPublicKeyInfo: [UInt8], issuerPublicKeyInfo: [UInt8]?,
                                       signedBy issuerKey: Key) throws(KeyError) -> [UInt8] {
        let signatureAlgorithm = Key.certificateSignatureAlgorithm
        var tbs = BERWriter()
        tbs.appendSequence { t in
            t.appendConstructed(.context(0)) { $0.appendInteger(2) }
            t.appendUnsignedInteger(magnitude: bigEndian(serialNumber))
            t.appendAlgorithmIdentifier(signatureAlgorithm)
            t.appendEncoded(issuer.encoded)
            t.appendSequence { validity in
                validity.appendTime(notBefore)
                validity.appendTime(notAfter)
            }
            t.appendEncoded(subject.encoded)
            t.appendEncoded(subjectPublicKeyInfo)
            t.appendConstructed(.context(3)) { explicit in
                explicit.appendSequence { extensions in
                    extensions.appendExtension(.basicConstraints, critical: true) { value in
                        value.appendSequence { constraints in
                            if role != .endEntity && role != .tlsServer { constraints.appendBoolean(true) }
                            if role == .intermediateCA { constraints.appendInteger(0) }
                        }
                    }
                    extensions.appendExtension(.keyUsage, critical: true) { value in
                        // Bits: digitalSignature 0, keyCertSign 5, cRLSign 6 (unused trailing bits dropped).
                        switch role {
                        case .rootCA, .intermediateCA: value.appendBitString(BitString(bytes: [0x06], unusedBits: 1))
                        case .endEntity, .tlsServer: value.appendBitString(BitString(bytes: [0x80], unusedBits: 7))
                        case .selfSignedSigner: value.appendBitString(BitString(bytes: [0x84], unusedBits: 2))
                        }
                    }
                    if role == .selfSignedSigner {
                        extensions.appendExtension(.extendedKeyUsage, critical: true) { value in
                            value.appendSequence { $0.appendObjectIdentifier(.codeSigning) }
                        }
                    }
                    if role == .tlsServer {
                        extensions.appendExtension(.extendedKeyUsage, critical: false) { value in
                            value.appendSequence { $0.appendObjectIdentifier(.serverAuth) }
                        }
                    }
                    if !subjectAlternativeNames.isEmpty {
                        extensions.appendExtension(.subjectAlternativeName, critical: false) { value in
                            value.appendSequence { names in
                                for name in subjectAlternativeNames { name.append(to: &names) }
                            }
                        }
                    }
                    if !permittedSubtrees.isEmpty {
                        extensions.appendExtension(.nameConstraints, critical: true) { value in
                            value.appendSequence { constraints in
                                constraints.appendConstructed(.context(0)) { permitted in
                                    for name in permittedSubtrees {
                                        permitted.appendSequence { name.append(to: &$0) }
                                    }
                                }
                            }
                        }
                    }
                    extensions.appendExtension(.subjectKeyIdentifier, critical: false) { value in
                        value.appendOctetString(keyIdentifier(subjectPublicKeyInfo))
                    }
                    extensions.appendExtension(.authorityKeyIdentifier, critical: false) { value in
                        value.appendSequence { aki in
                            aki.appendPrimitive(.context(0, constructed: false),
                                                contents: keyIdentifier(issuerPublicKeyInfo ?? subjectPublicKeyInfo))
                        }
                    }
                    for marker in markerExtensions {
                        extensions.appendExtension(marker, critical: false) { $0.appendNull() }
                    }
                }
            }
        }
        let signature = try issuerKey.signCertificate(tbs.bytes)
        var certificate = BERWriter()
        certificate.appendSequence { c in
            c.appendEncoded(tbs.bytes)
            c.appendAlgorithmIdentifier(signatureAlgorithm)
            c.appendBitString(BitString(bytes: signature[...]))
        }
        return certificate.bytes
    }
}

extension OID {
    package static let extendedKeyUsage: OID = "2.5.29.37"
    package static let codeSigning: OID = "1.3.6.1.5.5.7.3.3"
    package static let serverAuth: OID = "1.3.6.1.5.5.7.3.1"
    package static let subjectAlternativeName: OID = "2.5.29.17"
    package static let nameConstraints: OID = "2.5.29.30"
}

/// RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING's bytes.
package func keyIdentifier(_ subjectPublicKeyInfo: [UInt8]) -> [UInt8] {
    var reader = BERReader(subjectPublicKeyInfo, rules: .der)
    let key = try? reader.readSequence { (spki: inout BERReader) throws(BERError) -> BitString in
        _ = try spki.readElement(.sequence)
        return try spki.readBitString()
    }
    precondition(key != nil, "a SubjectPublicKeyInfo of the forge's own keys must parse")
    return DigestAlgorithm.sha1.digest(Array(key!.bytes))
}

package func bigEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

extension BERWriter {
    package mutating func appendExtension(_ oid: OID, critical: Bool, _ value: (inout BERWriter) -> Void) {
        appendSequence { e in
            e.appendObjectIdentifier(oid)
            if critical { e.appendBoolean(true) }
            var inner = BERWriter()
            value(&inner)
            e.appendOctetString(inner.bytes)
        }
    }
}

/// The fields of a certificate the forge needs back (issuer and serial for the
/// SignerInfo, validity for case files), read with the BER module.
public struct CertificateSummary: Sendable {
    public let serialNumber: [UInt8]
    public let issuer: [UInt8]
    public let subject: [UInt8]
    public let notBefore: ASN1Time
    public let notAfter: ASN1Time

    public init(der: [UInt8]) throws(BERError) {
        var reader = BERReader(der, rules: .der)
        var fields: (serial: [UInt8], issuer: [UInt8], subject: [UInt8], notBefore: ASN1Time, notAfter: ASN1Time)?
        try reader.readSequence { (certificate: inout BERReader) throws(BERError) in
            try certificate.readSequence { (tbs: inout BERReader) throws(BERError) in
                _ = try tbs.readOptionalElement(.context(0))
                let serial = Array(try tbs.readUnsignedIntegerMagnitude())
                _ = try tbs.readElement(.sequence)
                let issuer = Array(try tbs.readElement(.sequence).encodedBytes)
                let (notBefore, notAfter) = try tbs.readSequence {
                    (validity: inout BERReader) throws(BERError) -> (ASN1Time, ASN1Time) in
                    (try validity.readTime(), try validity.readTime())
                }
                let subject = Array(try tbs.readElement(.sequence).encodedBytes)
                while !tbs.isAtEnd { _ = try tbs.readElement() }
                fields = (serial, issuer, subject, notBefore, notAfter)
            }
            while !certificate.isAtEnd { _ = try certificate.readElement() }
        }
        try reader.finish()
        let parsed = fields!
        serialNumber = parsed.serial
        issuer = parsed.issuer
        subject = parsed.subject
        notBefore = parsed.notBefore
        notAfter = parsed.notAfter
    }
}
