import BER
import Receipt

/// CMS signed attributes (RFC 5652 §5.3, §11.2). Receipts carry none; a SignerInfo
/// that has them signs the attributes, and the `messageDigest` attribute binds them
/// to the payload.
enum SignedAttributes {
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
            try CMSAttributes.forEach(&reader, .context(0)) { (type, values: inout BERReader, offset) throws(BERError) in
                var found: [ArraySlice<UInt8>] = []
                while !values.isAtEnd {
                    if type == .messageDigest {
                        found.append(try values.readOctetString())
                    } else {
                        _ = try values.readElement()
                    }
                }
                if type == .messageDigest {
                    guard found.count == 1 else {
                        throw BERError(.unexpectedTag, at: offset, "messageDigest must have exactly one value, has \(found.count)")
                    }
                    digests.append((found[0], offset))
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
