import BER

/// `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`
/// (RFC 5280 §4.1.1.2), as PKCS#7 SignerInfos, X.509 certificates and public keys
/// carry it. The parameters are kept as received, so a reader can tell NULL from
/// absent and refuse anything else.
public struct AlgorithmIdentifier: Hashable, Sendable {
    /// The algorithm's identifier.
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

    /// Reads the SEQUENCE from `element`. The parameters, an ANY, must decode as
    /// OpenSSL decodes an ANY (`OpenSSLAny.check`), which d2i_PKCS7 and d2i_X509 require.
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
            try withBERPath("parameters") { () throws(BERError) in try OpenSSLAny.check(parameters) }
            self.parameters = Array(parameters.encodedBytes)
        }
        try fields.finish()
    }

    /// Parameters NULL, the form RFC 3279 prescribes for RSA keys and signatures.
    public var hasNullParameters: Bool { parameters == AlgorithmIdentifier.nullParameters }

    /// Parameters absent or NULL: the two forms the SHA family is found in.
    public var hasAbsentOrNullParameters: Bool { parameters == nil || hasNullParameters }
}

/// Reading `AlgorithmIdentifier`s through the one checked cursor.
extension BERReader {
    /// Reads an `AlgorithmIdentifier` SEQUENCE.
    public mutating func readAlgorithmIdentifier() throws(BERError) -> AlgorithmIdentifier {
        try AlgorithmIdentifier(try readElement(.sequence))
    }
}

/// Writing `AlgorithmIdentifier`s.
extension BERWriter {
    /// Appends `identifier`: its OID, then its parameters as they are.
    public mutating func appendAlgorithmIdentifier(_ identifier: AlgorithmIdentifier) {
        appendSequence { sequence in
            sequence.appendObjectIdentifier(identifier.oid)
            if let parameters = identifier.parameters { sequence.appendEncoded(parameters) }
        }
    }
}
