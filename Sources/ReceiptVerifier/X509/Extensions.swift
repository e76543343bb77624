import BER

/// `basicConstraints` (RFC 5280 §4.2.1.9).
public struct BasicConstraints: Hashable, Sendable {
    /// True when the subject is a CA, allowed to sign certificates.
    public var isCertificateAuthority: Bool
    /// The most non-self-issued intermediates that may follow this CA; nil: no limit.
    public var pathLengthConstraint: Int?

    /// Basic constraints from their two fields.
    public init(isCertificateAuthority: Bool, pathLengthConstraint: Int? = nil) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }
}

/// `keyUsage` (RFC 5280 §4.2.1.3): bit n of the BIT STRING is `1 << n` here.
public struct KeyUsage: OptionSet, Hashable, Sendable {
    /// The bits, bit n of the BIT STRING as `1 << n`.
    public let rawValue: UInt16
    /// Key usages from their bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 0: signatures other than on certificates and CRLs.
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// Bit 1: content commitment.
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    /// Bit 2: encrypting keys.
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// Bit 3: encrypting data directly.
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// Bit 4: key agreement.
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// Bit 5: signing certificates (CAs).
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// Bit 6: signing revocation lists.
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// Bit 7: with key agreement, encipher only.
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// Bit 8: with key agreement, decipher only.
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)
}

/// The extensions of a certificate: every one as received, and the ones the
/// verifier understands decoded.
///
/// Understood (decoded or acted on): basicConstraints, keyUsage, extendedKeyUsage
/// (decoded; receipt signing requires no purpose — Apple's leaves carry none, the
/// StoreKit test certificate a critical codeSigning), and Apple's two marker
/// extensions (presence). Any other extension marked critical is listed in
/// `unhandledCriticalExtensions`, for policy to refuse (RFC 5280 §4.2).
public struct CertificateExtensions: Sendable {
    /// `Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`.
    public struct Extension: Sendable {
        /// The extension's identifier.
        public let oid: OID
        /// True when a verifier that does not understand the extension must refuse the certificate.
        public let isCritical: Bool
        /// The contents of extnValue: the extension's own DER encoding.
        public let value: ArraySlice<UInt8>
    }

    /// Every extension, in encoding order (no OID twice).
    public let all: [Extension]
    /// The decoded basicConstraints, or nil when absent.
    public let basicConstraints: BasicConstraints?
    /// The decoded keyUsage, or nil when absent.
    public let keyUsage: KeyUsage?
    /// The extendedKeyUsage purposes, or nil when absent.
    public let extendedKeyUsage: [OID]?

    /// OIDs of the extensions decoded or acted on (see the type's comment).
    public static let understood: Set<OID> = [
        .basicConstraints, .keyUsage, .extendedKeyUsage,
        .appleWWDRIntermediateMarker, .appleReceiptSigningMarker,
    ]

    /// No extensions (v1 and v2 certificates).
    static let none = CertificateExtensions(all: [], basicConstraints: nil, keyUsage: nil, extendedKeyUsage: nil)

    /// True when the certificate has an extension with `oid`.
    public func contains(_ oid: OID) -> Bool { all.contains { $0.oid == oid } }

    /// Apple's "Worldwide Developer Relations" intermediate marker (1.2.840.113635.100.6.2.1).
    public var hasAppleWWDRIntermediateMarker: Bool { contains(.appleWWDRIntermediateMarker) }
    /// Apple's receipt-signing leaf marker (1.2.840.113635.100.6.11.1).
    public var hasAppleReceiptSigningMarker: Bool { contains(.appleReceiptSigningMarker) }

    /// Critical extensions not in `understood`.
    public var unhandledCriticalExtensions: [OID] {
        all.filter { $0.isCritical && !Self.understood.contains($0.oid) }.map(\.oid)
    }

    init(all: [Extension], basicConstraints: BasicConstraints?, keyUsage: KeyUsage?, extendedKeyUsage: [OID]?) {
        self.all = all
        self.basicConstraints = basicConstraints
        self.keyUsage = keyUsage
        self.extendedKeyUsage = extendedKeyUsage
    }

    /// Reads `[3] EXPLICIT Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension`.
    init(_ element: BERElement, path: [String]) throws(CertificateError) {
        let read = try decoding(path) { () throws(BERError) -> [(Extension, offset: Int)] in
            var explicit = try element.contentsReader()
            let list = try explicit.readSequence { (list: inout BERReader) throws(BERError) -> [(Extension, offset: Int)] in
                var extensions: [(Extension, offset: Int)] = []
                while !list.isAtEnd {
                    let offset = list.offset
                    let item = try withBERPath("[\(extensions.count)]") { () throws(BERError) in
                        try list.readSequence { (item: inout BERReader) throws(BERError) -> Extension in
                            let oid = try item.readObjectIdentifier()
                            let critical = try item.peekTag() == .boolean ? try item.readBoolean() : false
                            let value = try item.readOctetString()
                            return Extension(oid: oid, isCritical: critical, value: value)
                        }
                    }
                    extensions.append((item, offset))
                }
                return extensions
            }
            try explicit.finish()
            return list
        }
        guard !read.isEmpty else {
            throw CertificateError(.invalidExtension, at: element.offset, path: path, "extensions must not be empty")
        }
        var seen = Set<OID>()
        var basicConstraints: BasicConstraints?
        var keyUsage: KeyUsage?
        var extendedKeyUsage: [OID]?
        let rules = element.rules
        let depth = element.depth + 3
        for (index, (item, offset)) in read.enumerated() {
            let itemPath = path + ["[\(index)]"]
            guard seen.insert(item.oid).inserted else {
                throw CertificateError(.duplicateExtension, at: offset, path: itemPath, "extension \(item.oid) appears twice")
            }
            var value = BERReader(item.value, rules: rules, depth: depth)
            switch item.oid {
            case .basicConstraints:
                basicConstraints = try Self.decodeValue(&value, path: itemPath + ["basicConstraints"], Self.readBasicConstraints)
            case .keyUsage:
                keyUsage = try Self.decodeValue(&value, path: itemPath + ["keyUsage"], Self.readKeyUsage)
            case .extendedKeyUsage:
                extendedKeyUsage = try Self.decodeValue(&value, path: itemPath + ["extendedKeyUsage"], Self.readExtendedKeyUsage)
            default:
                break
            }
        }
        self.init(all: read.map(\.0), basicConstraints: basicConstraints, keyUsage: keyUsage,
                  extendedKeyUsage: extendedKeyUsage)
    }

    /// Decodes one extension value; a BER fault becomes `invalidExtension`.
    private static func decodeValue<T>(
        _ reader: inout BERReader, path: [String], _ read: (inout BERReader) throws(BERError) -> T
    ) throws(CertificateError) -> T {
        do {
            let value = try read(&reader)
            try reader.finish()
            return value
        } catch {
            var failure = CertificateError(error, path: path)
            failure.code = .invalidExtension
            throw failure
        }
    }

    /// `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER (0..MAX) OPTIONAL }`.
    private static func readBasicConstraints(_ reader: inout BERReader) throws(BERError) -> BasicConstraints {
        try reader.readSequence { (sequence: inout BERReader) throws(BERError) -> BasicConstraints in
            let isCA = try sequence.peekTag() == .boolean ? try sequence.readBoolean() : false
            var pathLength: Int?
            if try sequence.peekTag() == .integer {
                pathLength = try withBERPath("pathLenConstraint") { () throws(BERError) -> Int in
                    let offset = sequence.offset
                    let value = try sequence.readInt64()
                    guard (0...Int64(Int32.max)).contains(value) else {
                        throw BERError(.integerOverflow, at: offset, "pathLenConstraint \(value) is outside 0...2^31-1")
                    }
                    return Int(value)
                }
            }
            return BasicConstraints(isCertificateAuthority: isCA, pathLengthConstraint: pathLength)
        }
    }

    /// `KeyUsage ::= BIT STRING`; bits past decipherOnly are ignored, as Go does.
    private static func readKeyUsage(_ reader: inout BERReader) throws(BERError) -> KeyUsage {
        let bits = try reader.readBitString()
        var usage: UInt16 = 0
        for (byteIndex, byte) in bits.bytes.prefix(2).enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                let n = byteIndex * 8 + bit
                if n <= 8 { usage |= 1 << n }
            }
        }
        return KeyUsage(rawValue: usage)
    }

    /// `ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId`.
    private static func readExtendedKeyUsage(_ reader: inout BERReader) throws(BERError) -> [OID] {
        let start = reader.offset
        let purposes = try reader.readSequence { (sequence: inout BERReader) throws(BERError) -> [OID] in
            var purposes: [OID] = []
            while !sequence.isAtEnd { purposes.append(try sequence.readObjectIdentifier()) }
            return purposes
        }
        guard !purposes.isEmpty else { throw BERError(.unexpectedTag, at: start, "extendedKeyUsage must not be empty") }
        return purposes
    }
}

/// The extended key usage extension, which the verifier decodes.
extension OID {
    /// `id-ce-extKeyUsage` (RFC 5280 §4.2.1.12).
    public static let extendedKeyUsage: OID = "2.5.29.37"
}
