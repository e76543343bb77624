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
    /// NULL), which X.690 forbids and OpenSSL's parser refuses.
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
            self.parameters = Array(parameters.encodedBytes)
        }
        try fields.finish()
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
