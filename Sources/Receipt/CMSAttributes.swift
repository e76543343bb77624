import BER

/// CMS attribute lists (RFC 5652 §5.3): `[0]`/`[1] IMPLICIT SET OF Attribute`, with
/// `Attribute ::= SEQUENCE { attrType OID, attrValues SET OF AttributeValue }`. The one
/// walk over them: the SignerInfo parser checks every value with it, the verifier reads
/// `messageDigest` with it.
public enum CMSAttributes {
    /// Most attributes in one list: bounds the work of a hostile list.
    public static let maximumCount = 64

    /// Reads the attribute list tagged `tag` and calls `body` with each attribute's
    /// type, a reader over its values (which `body` must consume) and the attribute's
    /// offset. Errors carry the attribute's path (`[i]`, `attrType`, `attrValues`).
    public static func forEach(
        _ reader: inout BERReader, _ tag: BERTag,
        _ body: (OID, inout BERReader, Int) throws(BERError) -> Void
    ) throws(BERError) {
        try reader.readConstructed(tag) { (set: inout BERReader) throws(BERError) in
            var index = 0
            while !set.isAtEnd {
                let offset = set.offset
                guard index < maximumCount else {
                    throw BERError(.unexpectedTag, at: offset, "more than \(maximumCount) attributes")
                }
                try withBERPath("[\(index)]") { () throws(BERError) in
                    try set.readSequence { (attribute: inout BERReader) throws(BERError) in
                        let type = try withBERPath("attrType") { () throws(BERError) in try attribute.readObjectIdentifier() }
                        try withBERPath("attrValues") { () throws(BERError) in
                            try attribute.readConstructed(.set) { (values: inout BERReader) throws(BERError) in
                                try body(type, &values, offset)
                            }
                        }
                    }
                }
                index += 1
            }
        }
    }
}
