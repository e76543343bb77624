import BER

/// How a SignerInfo names its certificate.
public enum SignerIdentifier: Hashable, Sendable {
    /// `IssuerAndSerialNumber` (version 1, what receipts use): the issuer's raw `Name`
    /// encoding (tag and length included, as received) and the serial number's
    /// unsigned big-endian magnitude.
    case issuerAndSerialNumber(issuer: [UInt8], serialNumber: [UInt8])
    /// `[0] SubjectKeyIdentifier` (version 3).
    case subjectKeyIdentifier([UInt8])
}

/// One `SignerInfo` (RFC 5652 5.3), with the raw bytes a verifier needs.
public struct SignerInfo: Hashable, Sendable {
    /// The SignerInfo version: 1 with an issuer and serial number, 3 with a subject key identifier.
    public var version: Int64
    /// Which certificate signed.
    public var signerIdentifier: SignerIdentifier
    /// The digest of the payload (or of the signed attributes) that was signed.
    public var digestAlgorithm: AlgorithmIdentifier
    /// The `[0] IMPLICIT SET OF Attribute` exactly as received, tag included; nil when
    /// absent (as in every receipt). When present the signature covers these bytes
    /// with the tag replaced by SET (0x31), not the payload (RFC 5652 5.4).
    public var signedAttributes: [UInt8]?
    /// The signature algorithm (`rsaEncryption` or `sha…WithRSAEncryption` in receipts).
    public var signatureAlgorithm: AlgorithmIdentifier
    /// The signature bytes.
    public var signature: [UInt8]
    /// The `[1] IMPLICIT SET OF Attribute` as received, or nil.
    public var unsignedAttributes: [UInt8]?

    /// A SignerInfo from its parts (what the forge and tests build).
    public init(version: Int64 = 1, signerIdentifier: SignerIdentifier, digestAlgorithm: AlgorithmIdentifier,
                signedAttributes: [UInt8]? = nil, signatureAlgorithm: AlgorithmIdentifier, signature: [UInt8],
                unsignedAttributes: [UInt8]? = nil) {
        self.version = version
        self.signerIdentifier = signerIdentifier
        self.digestAlgorithm = digestAlgorithm
        self.signedAttributes = signedAttributes
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
        self.unsignedAttributes = unsignedAttributes
    }
}

/// The PKCS#7 / CMS container of an app receipt: `ContentInfo { signedData, [0]
/// SignedData }`, parsed with BER rules (Xcode receipts use indefinite lengths and a
/// constructed OCTET STRING). Everything a verifier hashes or compares is kept as
/// received: the payload bytes, each certificate's DER in the order it appears (App
/// Store receipts use chain order, not DER SET order), the signer's issuer name.
///
/// This parses structure only; it checks no signature and trusts no certificate.
public struct PKCS7SignedData: Hashable, Sendable {
    /// How the container is encoded.
    public enum Encoding: String, Hashable, Sendable, Codable {
        /// Definite lengths throughout (App Store receipts).
        case definite
        /// BER indefinite lengths (Xcode StoreKit-testing receipts).
        case berIndefinite = "ber-indefinite"
    }

    /// The outer content type (always `pkcs7SignedData` once parsed).
    public var contentType: OID
    /// The SignedData version (1 in receipts).
    public var version: Int64
    /// The `digestAlgorithms` SET: the digests the signers use.
    public var digestAlgorithms: [AlgorithmIdentifier]
    /// `encapContentInfo.eContentType` (`pkcs7Data` in receipts).
    public var encapsulatedContentType: OID
    /// The receipt payload: the OCTET STRING's value, segments concatenated; nil if the
    /// content is detached (never in receipts).
    public var payload: [UInt8]?
    /// True when the payload came as a constructed (segmented) OCTET STRING.
    public var payloadIsSegmented: Bool
    /// Each certificate's encoding exactly as received, in order.
    public var certificates: [[UInt8]]
    /// The raw `[1]` CRLs element, if any.
    public var crls: [UInt8]?
    /// The signers; receipts have exactly one.
    public var signerInfos: [SignerInfo]
    /// Whether the container uses definite or indefinite lengths.
    public var encoding: Encoding

    /// A container from its parts (what the forge and tests build).
    public init(contentType: OID = .pkcs7SignedData, version: Int64 = 1, digestAlgorithms: [AlgorithmIdentifier],
                encapsulatedContentType: OID = .pkcs7Data, payload: [UInt8]?, payloadIsSegmented: Bool = false,
                certificates: [[UInt8]], crls: [UInt8]? = nil, signerInfos: [SignerInfo],
                encoding: Encoding = .definite) {
        self.contentType = contentType
        self.version = version
        self.digestAlgorithms = digestAlgorithms
        self.encapsulatedContentType = encapsulatedContentType
        self.payload = payload
        self.payloadIsSegmented = payloadIsSegmented
        self.certificates = certificates
        self.crls = crls
        self.signerInfos = signerInfos
        self.encoding = encoding
    }

    /// Parses a receipt file's bytes (binary, not base64). Trailing bytes after the
    /// ContentInfo are refused. iOS 6 plist transaction receipts, base64 text and other
    /// non-PKCS#7 input give `ReceiptError.notPKCS7` saying what it looks like.
    public init(bytes: [UInt8]) throws(ReceiptError) {
        if let what = PKCS7SignedData.notPKCS7(bytes) { throw .notPKCS7(what) }
        do {
            self = try PKCS7SignedData.parse(bytes)
        } catch {
            throw .malformed(error)
        }
    }

    /// The decoded receipt payload. Errors are `malformed`, with offsets into `payload`.
    public func decodeReceipt() throws(ReceiptError) -> AppReceipt {
        guard let payload else {
            throw .malformed(BERError(.unexpectedTag, at: 0, "the receipt has no encapsulated payload",
                                      path: ["signedData", "encapContentInfo", "eContent"]))
        }
        do {
            return try withBERPath("payload") { () throws(BERError) in try AppReceipt(decoding: payload) }
        } catch {
            throw .malformed(error)
        }
    }

    /// What `bytes` looks like when it is plainly not a DER/BER ContentInfo, or nil if it may be one.
    static func notPKCS7(_ bytes: [UInt8]) -> NotPKCS7? {
        guard let first = bytes.first else { return .empty }
        if first == 0x30 { return nil }
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") || text.hasPrefix("bplist") {
            return .transactionReceipt
        }
        if trimmed.hasPrefix("MI") { return .base64Text }
        return .firstByte(first)
    }

    /// The container's rules: BER, with minimal INTEGERs (its versions and the signer's
    /// serial number), as X.690 8.3.2 and OpenSSL's `d2i_PKCS7` require.
    public static let rules = BERRules(.ber, requireMinimalIntegers: true)

    static func parse(_ bytes: [UInt8]) throws(BERError) -> PKCS7SignedData {
        var reader = BERReader(bytes, rules: rules)
        let contentInfo = try withBERPath("contentInfo") { () throws(BERError) in try reader.readExtent(.sequence) }
        let result = try withBERPath("contentInfo") { () throws(BERError) -> PKCS7SignedData in
            try reader.withContents(of: contentInfo) { (fields: inout BERReader) throws(BERError) -> PKCS7SignedData in
                let offset = fields.offset
                let contentType = try withBERPath("contentType") { () throws(BERError) in try fields.readObjectIdentifier() }
                guard contentType == .pkcs7SignedData else {
                    throw BERError(.unexpectedTag, at: offset, "content type \(contentType) is not signedData",
                                   path: ["contentType"])
                }
                let explicit = try withBERPath("content") { () throws(BERError) in try fields.readExtent(.context(0)) }
                return try fields.withContents(of: explicit) { (content: inout BERReader) throws(BERError) -> PKCS7SignedData in
                    try withBERPath("signedData") { () throws(BERError) -> PKCS7SignedData in
                        let signedData = try content.readExtent(.sequence)
                        var parsed = try content.withContents(of: signedData) {
                            (fields: inout BERReader) throws(BERError) -> PKCS7SignedData in
                            try parseSignedData(&fields, contentType: contentType)
                        }
                        if contentInfo.isIndefiniteLength || explicit.isIndefiniteLength || signedData.isIndefiniteLength {
                            parsed.encoding = .berIndefinite
                        }
                        return parsed
                    }
                }
            }
        }
        try withBERPath("contentInfo") { () throws(BERError) in try reader.finish() }
        return result
    }

    static func parseSignedData(_ fields: inout BERReader, contentType: OID) throws(BERError) -> PKCS7SignedData {
        let version = try withBERPath("version") { () throws(BERError) in try fields.readInt64() }
        let digestAlgorithms = try withBERPath("digestAlgorithms") { () throws(BERError) -> [AlgorithmIdentifier] in
            try fields.readSet { (set: inout BERReader) throws(BERError) -> [AlgorithmIdentifier] in
                var algorithms: [AlgorithmIdentifier] = []
                while !set.isAtEnd {
                    let index = algorithms.count
                    algorithms.append(try withBERPath("[\(index)]") { () throws(BERError) in
                        try set.readAlgorithmIdentifier()
                    })
                }
                return algorithms
            }
        }
        var indefinite = false
        let (encapsulatedType, payload, segmented) = try withBERPath("encapContentInfo") {
            () throws(BERError) -> (OID, [UInt8]?, Bool) in
            let extent = try fields.readExtent(.sequence)
            indefinite = indefinite || extent.isIndefiniteLength
            return try fields.withContents(of: extent) { (encap: inout BERReader) throws(BERError) -> (OID, [UInt8]?, Bool) in
                let type = try withBERPath("eContentType") { () throws(BERError) in try encap.readObjectIdentifier() }
                guard !encap.isAtEnd else { return (type, nil, false) }
                return try withBERPath("eContent") { () throws(BERError) -> (OID, [UInt8]?, Bool) in
                    let explicit = try encap.readExtent(.context(0))
                    indefinite = indefinite || explicit.isIndefiniteLength
                    return try encap.withContents(of: explicit) { (inner: inout BERReader) throws(BERError) -> (OID, [UInt8]?, Bool) in
                        let segmented = try inner.peekTag() == BERTag.octetString.constructed(true)
                        let bytes = try inner.readOctetString()
                        return (type, Array(bytes), segmented)
                    }
                }
            }
        }
        var certificates: [[UInt8]] = []
        if try fields.peekTag() == .context(0) {
            try withBERPath("certificates") { () throws(BERError) in
                try fields.readConstructed(.context(0)) { (set: inout BERReader) throws(BERError) in
                    while !set.isAtEnd {
                        let index = certificates.count
                        let certificate = try withBERPath("[\(index)]") { () throws(BERError) in
                            try set.readElement(.sequence)
                        }
                        certificates.append(Array(certificate.encodedBytes))
                    }
                }
            }
        }
        var crls: [UInt8]?
        if try fields.peekTag() == .context(1) {
            crls = try withBERPath("crls") { () throws(BERError) in Array(try fields.readElement().encodedBytes) }
        }
        let signerInfos = try withBERPath("signerInfos") { () throws(BERError) -> [SignerInfo] in
            try fields.readSet { (set: inout BERReader) throws(BERError) -> [SignerInfo] in
                var infos: [SignerInfo] = []
                while !set.isAtEnd {
                    let index = infos.count
                    infos.append(try withBERPath("[\(index)]") { () throws(BERError) in try parseSignerInfo(&set) })
                }
                return infos
            }
        }
        return PKCS7SignedData(
            contentType: contentType, version: version, digestAlgorithms: digestAlgorithms,
            encapsulatedContentType: encapsulatedType, payload: payload, payloadIsSegmented: segmented,
            certificates: certificates, crls: crls, signerInfos: signerInfos,
            encoding: indefinite ? .berIndefinite : .definite)
    }

    static func parseSignerInfo(_ reader: inout BERReader) throws(BERError) -> SignerInfo {
        try reader.readSequence { (fields: inout BERReader) throws(BERError) -> SignerInfo in
            let version = try withBERPath("version") { () throws(BERError) in try fields.readInt64() }
            let signerIdentifier = try withBERPath("sid") { () throws(BERError) -> SignerIdentifier in
                if try fields.peekTag() == .context(0, constructed: false) {
                    return .subjectKeyIdentifier(Array(try fields.readOctetString(tag: .context(0, constructed: false))))
                }
                return try fields.readSequence { (sid: inout BERReader) throws(BERError) -> SignerIdentifier in
                    let issuer = try withBERPath("issuer") { () throws(BERError) in try sid.readElement(.sequence) }
                    let serial = try withBERPath("serialNumber") { () throws(BERError) in
                        try sid.readUnsignedIntegerMagnitude()
                    }
                    return .issuerAndSerialNumber(issuer: Array(issuer.encodedBytes), serialNumber: Array(serial))
                }
            }
            let digestAlgorithm = try withBERPath("digestAlgorithm") { () throws(BERError) in
                try fields.readAlgorithmIdentifier()
            }
            var signedAttributes: [UInt8]?
            if try fields.peekTag() == .context(0) {
                signedAttributes = try withBERPath("signedAttrs") { () throws(BERError) in
                    try readAttributes(&fields, .context(0))
                }
            }
            let signatureAlgorithm = try withBERPath("signatureAlgorithm") { () throws(BERError) in
                try fields.readAlgorithmIdentifier()
            }
            let signature = try withBERPath("signature") { () throws(BERError) in Array(try fields.readOctetString()) }
            var unsignedAttributes: [UInt8]?
            if try fields.peekTag() == .context(1) {
                unsignedAttributes = try withBERPath("unsignedAttrs") { () throws(BERError) in
                    try readAttributes(&fields, .context(1))
                }
            }
            return SignerInfo(version: version, signerIdentifier: signerIdentifier, digestAlgorithm: digestAlgorithm,
                              signedAttributes: signedAttributes, signatureAlgorithm: signatureAlgorithm,
                              signature: signature, unsignedAttributes: unsignedAttributes)
        }
    }

    /// A `[0]`/`[1]` attribute list, returned as received. Every value must decode as
    /// d2i_PKCS7 decodes an ANY: a signer whose attributes do not parse is malformed,
    /// refused here, not later when the signer is looked for.
    static func readAttributes(_ fields: inout BERReader, _ tag: BERTag) throws(BERError) -> [UInt8] {
        var check = fields
        try CMSAttributes.forEach(&check, tag) { (_, values: inout BERReader, _) throws(BERError) in
            // AttributeValue is an ANY: each must decode as OpenSSL decodes one.
            while !values.isAtEnd { try OpenSSLAny.check(try values.readElement()) }
        }
        return Array(try fields.readElement(tag).encodedBytes)
    }
}
