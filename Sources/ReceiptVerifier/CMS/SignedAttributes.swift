import BER

/// CMS signed attributes (RFC 5652 §5.3, §11.2). Receipts carry none; a SignerInfo
/// that has them signs the attributes, and the `messageDigest` attribute binds them
/// to the payload.
enum SignedAttributes {
    /// Most attributes read: bounds the work of a hostile attribute list.
    static let maximumCount = 64

    /// The bytes the signature covers: the attributes as received, with the `[0]`
    /// IMPLICIT tag replaced by SET (0x31), never a re-encoding (RFC 5652 §5.4).
    static func signedBytes(_ attributes: [UInt8]) -> [UInt8] {
        var bytes = attributes
        bytes[0] = 0x31  // SET, constructed
        return bytes
    }

    /// The single value of the single `messageDigest` attribute in
    /// `[0] IMPLICIT SET OF Attribute` (`Attribute ::= SEQUENCE { attrType OID,
    /// attrValues SET OF AttributeValue }`, the value an OCTET STRING).
    static func messageDigest(in attributes: [UInt8]) -> Result<ArraySlice<UInt8>, BERError> {
        Result { () throws(BERError) -> ArraySlice<UInt8> in
            var reader = BERReader(attributes, rules: .ber)
            var digests: [(ArraySlice<UInt8>, offset: Int)] = []
            try reader.readConstructed(.context(0)) { (set: inout BERReader) throws(BERError) in
                var index = 0
                while !set.isAtEnd {
                    let offset = set.offset
                    guard index < maximumCount else {
                        throw BERError(.unexpectedTag, at: offset, "more than \(maximumCount) signed attributes")
                    }
                    try withBERPath("[\(index)]") { () throws(BERError) in
                        try set.readSequence { (attribute: inout BERReader) throws(BERError) in
                            let type = try attribute.readObjectIdentifier()
                            let values = try attribute.readSet { (values: inout BERReader) throws(BERError) -> [ArraySlice<UInt8>] in
                                var found: [ArraySlice<UInt8>] = []
                                while !values.isAtEnd {
                                    if type == .messageDigest {
                                        found.append(try values.readOctetString())
                                    } else {
                                        _ = try values.readElement()
                                    }
                                }
                                return found
                            }
                            if type == .messageDigest {
                                guard values.count == 1 else {
                                    throw BERError(.unexpectedTag, at: offset, "messageDigest must have exactly one value, has \(values.count)")
                                }
                                digests.append((values[0], offset))
                            }
                        }
                    }
                    index += 1
                }
            }
            try reader.finish()
            guard digests.count == 1 else {
                throw BERError(.unexpectedTag, at: digests.last?.offset ?? 0,
                               "\(digests.count) messageDigest attributes; exactly one is required")
            }
            return digests[0].0
        }
    }
}
