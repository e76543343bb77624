/// An OBJECT IDENTIFIER. Stored as its validated contents octets, so comparing two
/// OIDs (the verifier's hot path: algorithm and extension identifiers) is a byte
/// compare; arcs are decoded on demand.
public struct OID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The contents octets (X.690 8.19), without tag and length.
    public let encoded: [UInt8]

    /// Validates `contents` as the contents octets of an OBJECT IDENTIFIER:
    /// non-empty, every subidentifier minimal (no leading 0x80) and terminated, and
    /// fitting 64 bits. `offset` is used for the error only.
    public init<C: Collection<UInt8>>(contents: C, offset: Int = 0) throws(BERError) {
        guard !contents.isEmpty else {
            try BERError.fail(.invalidObjectIdentifier, at: offset, "empty OBJECT IDENTIFIER")
        }
        var atStart = true
        var bits = 0
        for octet in contents {
            if atStart && octet == 0x80 {
                try BERError.fail(.invalidObjectIdentifier, at: offset, "subidentifier has a leading zero digit")
            }
            bits += 7
            if bits > 63 {
                try BERError.fail(.invalidObjectIdentifier, at: offset, "subidentifier exceeds 64 bits")
            }
            atStart = octet & 0x80 == 0
            if atStart { bits = 0 }
        }
        guard atStart else {
            try BERError.fail(.invalidObjectIdentifier, at: offset, "last subidentifier is not terminated")
        }
        self.encoded = Array(contents)
    }

    /// An OID from its arcs. Precondition: at least two arcs, the first 0...2, the
    /// second below 40 unless the first is 2 (X.690 8.19.4).
    public init(arcs: [UInt64]) {
        precondition(arcs.count >= 2 && arcs[0] <= 2 && (arcs[0] == 2 || arcs[1] < 40), "invalid OID arcs \(arcs)")
        var bytes: [UInt8] = []
        func append(_ value: UInt64) {
            var digits: [UInt8] = [UInt8(value & 0x7F)]
            var rest = value >> 7
            while rest > 0 {
                digits.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(contentsOf: digits.reversed())
        }
        append(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { append(arc) }
        self.encoded = bytes
    }

    /// An OID from dotted text ("1.2.840.113549.1.7.2"); nil if it is not one.
    public init?(dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return nil }
        let arcs = parts.map { $0! }
        guard arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        self.init(arcs: arcs)
    }

    /// For literals in source code; traps on an invalid literal (a programming error).
    public init(stringLiteral value: String) {
        guard let oid = OID(dotted: value) else { preconditionFailure("invalid OID literal \(value)") }
        self = oid
    }

    /// The arcs: the first subidentifier split into two arcs as X.690 prescribes.
    public var arcs: [UInt64] {
        var values: [UInt64] = []
        var value: UInt64 = 0
        for octet in encoded {
            value = value << 7 | UInt64(octet & 0x7F)
            if octet & 0x80 == 0 {
                values.append(value)
                value = 0
            }
        }
        let first = values[0]
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return head + values.dropFirst()
    }

    /// Dotted decimal form.
    public var description: String { arcs.map(String.init).joined(separator: ".") }
}

extension OID {
    // The identifiers receipts are made of.
    /// PKCS #7 `data`: the content type of a receipt's payload.
    public static let pkcs7Data: OID = "1.2.840.113549.1.7.1"
    /// PKCS #7 `signedData`: the content type of the receipt container.
    public static let pkcs7SignedData: OID = "1.2.840.113549.1.7.2"
    /// An RSA public key (PKCS #1), in a certificate's key info.
    public static let rsaEncryption: OID = "1.2.840.113549.1.1.1"
    /// RSA PKCS #1 v1.5 over SHA-1: older receipts' signature.
    public static let sha1WithRSAEncryption: OID = "1.2.840.113549.1.1.5"
    /// RSA PKCS #1 v1.5 over SHA-256: current receipts' and certificates' signature.
    public static let sha256WithRSAEncryption: OID = "1.2.840.113549.1.1.11"
    /// MD5, which verifiers must refuse; a forge case signs with it to test that they do.
    public static let md5: OID = "1.2.840.113549.2.5"
    /// SHA-1.
    public static let sha1: OID = "1.3.14.3.2.26"
    /// SHA-256.
    public static let sha256: OID = "2.16.840.1.101.3.4.2.1"
    /// SHA-384.
    public static let sha384: OID = "2.16.840.1.101.3.4.2.2"
    /// SHA-512.
    public static let sha512: OID = "2.16.840.1.101.3.4.2.3"
    /// The `contentType` signed attribute (RFC 5652 11.1).
    public static let contentType: OID = "1.2.840.113549.1.9.3"
    /// The `messageDigest` signed attribute (RFC 5652 11.2).
    public static let messageDigest: OID = "1.2.840.113549.1.9.4"
    /// The `signingTime` signed attribute (RFC 5652 11.3).
    public static let signingTime: OID = "1.2.840.113549.1.9.5"
    /// The CN attribute of a distinguished name.
    public static let commonName: OID = "2.5.4.3"
    /// The C attribute of a distinguished name.
    public static let countryName: OID = "2.5.4.6"
    /// The O attribute of a distinguished name.
    public static let organizationName: OID = "2.5.4.10"
    /// The OU attribute of a distinguished name.
    public static let organizationalUnitName: OID = "2.5.4.11"
    /// The subject key identifier extension (RFC 5280 4.2.1.2).
    public static let subjectKeyIdentifier: OID = "2.5.29.14"
    /// The key usage extension (RFC 5280 4.2.1.3).
    public static let keyUsage: OID = "2.5.29.15"
    /// The basic constraints extension (RFC 5280 4.2.1.9).
    public static let basicConstraints: OID = "2.5.29.19"
    /// The authority key identifier extension (RFC 5280 4.2.1.1).
    public static let authorityKeyIdentifier: OID = "2.5.29.35"
    /// Marker extension of Apple's "Worldwide Developer Relations" intermediate CA.
    public static let appleWWDRIntermediateMarker: OID = "1.2.840.113635.100.6.2.1"
    /// Marker extension of Apple's "Mac App Store and iTunes Store Receipt Signing" leaf.
    public static let appleReceiptSigningMarker: OID = "1.2.840.113635.100.6.11.1"

    /// Short names for the identifiers above, for dumps.
    public var shortName: String? {
        switch self {
        case .pkcs7Data: return "pkcs7-data"
        case .pkcs7SignedData: return "pkcs7-signedData"
        case .rsaEncryption: return "rsaEncryption"
        case .sha1WithRSAEncryption: return "sha1WithRSAEncryption"
        case .sha256WithRSAEncryption: return "sha256WithRSAEncryption"
        case .md5: return "md5"
        case .sha1: return "sha1"
        case .sha256: return "sha256"
        case .sha384: return "sha384"
        case .sha512: return "sha512"
        case .contentType: return "contentType"
        case .messageDigest: return "messageDigest"
        case .signingTime: return "signingTime"
        case .commonName: return "commonName"
        case .countryName: return "countryName"
        case .organizationName: return "organizationName"
        case .organizationalUnitName: return "organizationalUnitName"
        case .subjectKeyIdentifier: return "X509v3 Subject Key Identifier"
        case .keyUsage: return "X509v3 Key Usage"
        case .basicConstraints: return "X509v3 Basic Constraints"
        case .authorityKeyIdentifier: return "X509v3 Authority Key Identifier"
        case .appleWWDRIntermediateMarker: return "Apple WWDR intermediate marker"
        case .appleReceiptSigningMarker: return "Apple receipt signing marker"
        default: return nil
        }
    }
}
