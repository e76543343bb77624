import BER

/// `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`
/// (RFC 5280 §4.1.1.2), as PKCS#7 SignerInfos, X.509 certificates and public keys
/// carry it. The parameters are kept as received, so a reader can tell NULL from
/// absent and refuse anything else.
public struct AlgorithmIdentifier: Hashable, Sendable {
    public var oid: OID
    /// The raw parameters element, tag and length included (usually NULL, `05 00`),
    /// or nil when absent.
    public var parameters: [UInt8]?

    /// The encoding of a NULL parameters element.
    public static let nullParameters: [UInt8] = [0x05, 0x00]

    /// By default with NULL parameters, as RSA and the SHA family are written.
    public init(oid: OID, parameters: [UInt8]? = AlgorithmIdentifier.nullParameters) {
        self.oid = oid
        self.parameters = parameters
    }

    /// Universal types X.690 allows only in primitive form (BOOLEAN, INTEGER, NULL,
    /// OBJECT IDENTIFIER, REAL, ENUMERATED, RELATIVE-OID), in BER as in DER.
    static let primitiveOnlyTypes: Set<UInt32> = [1, 2, 5, 6, 9, 10, 13]

    /// Reads the SEQUENCE from `element`. Any parameters element is accepted but one
    /// of a primitive-only universal type in constructed form (`25 00`, a constructed
    /// NULL), which X.690 forbids and OpenSSL's parser refuses, and a primitive one whose
    /// contents OpenSSL's decoder of ANY refuses (`checkParameterContents`).
    public init(_ element: BERElement) throws(BERError) {
        guard element.tag == .sequence else {
            throw BERError(.unexpectedTag, at: element.offset, "expected SEQUENCE, found \(element.tag)")
        }
        var fields = try element.contentsReader()
        oid = try withBERPath("algorithm") { () throws(BERError) in try fields.readObjectIdentifier() }
        if fields.isAtEnd {
            parameters = nil
        } else {
            let parameters = try fields.readElement()
            if parameters.tag.tagClass == .universal && parameters.tag.isConstructed
                && Self.primitiveOnlyTypes.contains(parameters.tag.number) {
                throw BERError(.invalidConstruction, at: parameters.offset,
                               "the parameters are a constructed \(parameters.tag), a type that is always primitive",
                               path: ["parameters"])
            }
            if parameters.tag.tagClass == .universal && !parameters.tag.isConstructed {
                try withBERPath("parameters") { () throws(BERError) in try Self.checkParameterContents(parameters) }
            }
            self.parameters = Array(parameters.encodedBytes)
        }
        try fields.finish()
    }

    /// BER as OpenSSL's decoder of ANY reads it: any non-zero BOOLEAN, INTEGERs minimal.
    static let anyRules = BERRules(.ber, requireMinimalIntegers: true)

    /// The contents checks OpenSSL's decoder makes on an ANY of a primitive universal
    /// type (`asn1_ex_c2i`), which d2i_PKCS7 and d2i_X509 apply to algorithm parameters,
    /// whatever the encoding rules: NULL empty; BOOLEAN one octet; INTEGER and ENUMERATED
    /// not empty, without a redundant leading octet; OBJECT IDENTIFIER not empty, its last
    /// octet final, no subidentifier starting with 0x80; BIT STRING an unused-bits
    /// octet of 0 to 7 first; BMPString an even length; UniversalString a multiple of four.
    static func checkParameterContents(_ element: BERElement) throws(BERError) {
        let contents = element.contents
        func refuse(_ code: BERError.Code, _ reason: String) throws(BERError) -> Never {
            throw BERError(code, at: element.offset, "\(element.tag) parameters: \(reason)")
        }
        switch element.tag.number {
        case 1, 2, 5, 10:
            // The tree parser's checks of these types, in the rules OpenSSL's ANY follows.
            var reader = BERReader(element.encodedBytes, rules: anyRules)
            try reader.readElement().checkPrimitiveContents()
        case 6:
            // Not `OID(contents:)`, which also refuses arcs past 64 bits: OpenSSL reads them.
            guard let last = contents.last, last & 0x80 == 0 else {
                try refuse(.invalidObjectIdentifier, "empty, or its last subidentifier unfinished")
            }
            var previous: UInt8 = 0
            for octet in contents {
                if octet == 0x80 && previous & 0x80 == 0 {
                    try refuse(.invalidObjectIdentifier, "a subidentifier starts with 0x80")
                }
                previous = octet
            }
        case 3:
            guard let unused = contents.first, unused <= 7 else {
                try refuse(.invalidBitString, "no unused-bits octet, or one above 7")
            }
        case 30 where contents.count % 2 != 0:
            try refuse(.invalidString, "a BMPString of an odd length")
        case 28 where contents.count % 4 != 0:
            try refuse(.invalidString, "a UniversalString whose length is no multiple of four")
        default:
            break
        }
    }

    /// Parameters NULL, the form RFC 3279 prescribes for RSA keys and signatures.
    public var hasNullParameters: Bool { parameters == AlgorithmIdentifier.nullParameters }

    /// Parameters absent or NULL: the two forms the SHA family is found in.
    public var hasAbsentOrNullParameters: Bool { parameters == nil || hasNullParameters }
}

extension BERReader {
    /// Reads an `AlgorithmIdentifier` SEQUENCE.
    public mutating func readAlgorithmIdentifier() throws(BERError) -> AlgorithmIdentifier {
        try AlgorithmIdentifier(try readElement(.sequence))
    }
}

extension BERWriter {
    /// Appends `identifier`: its OID, then its parameters as they are.
    public mutating func appendAlgorithmIdentifier(_ identifier: AlgorithmIdentifier) {
        appendSequence { sequence in
            sequence.appendObjectIdentifier(identifier.oid)
            if let parameters = identifier.parameters { sequence.appendEncoded(parameters) }
        }
    }
}
