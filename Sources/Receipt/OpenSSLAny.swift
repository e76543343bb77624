import BER

/// An ANY value (algorithm parameters, CMS attribute values) as OpenSSL's decoder reads
/// it (`asn1_d2i_ex_primitive`, `asn1_ex_c2i`): d2i_PKCS7 and d2i_X509 refuse what it
/// refuses, so a verifier that agrees with OpenSSL refuses it too.
public enum OpenSSLAny {
    /// Universal types that are always primitive (BOOLEAN, INTEGER, NULL, OBJECT
    /// IDENTIFIER, REAL, ENUMERATED, RELATIVE-OID): a constructed one is refused.
    static let primitiveOnlyTypes: Set<UInt32> = [1, 2, 5, 6, 9, 10, 13]

    /// Throws unless OpenSSL decodes `element` as an ANY: a SEQUENCE or SET
    /// constructed; a primitive-only type primitive; another universal type in
    /// constructed form made of well-formed segments (OpenSSL concatenates them); a
    /// primitive universal value with the contents its type needs
    /// (`checkPrimitiveContents`). Other classes are kept whole, unchecked.
    public static func check(_ element: BERElement) throws(BERError) {
        let tag = element.tag
        guard tag.tagClass == .universal else { return }
        switch (tag.number, tag.isConstructed) {
        case (16, false), (17, false):
            throw BERError(.invalidConstruction, at: element.offset, "a primitive \(tag): a SEQUENCE or SET is constructed")
        case (16, true), (17, true):
            return
        case (let number, true) where primitiveOnlyTypes.contains(number):
            throw BERError(.invalidConstruction, at: element.offset, "a constructed \(tag), a type that is always primitive")
        case (_, true):
            try checkContents(tag.number, try collect(element), of: element)
        case (_, false):
            try checkPrimitiveContents(element)
        }
    }

    /// How deep OpenSSL lets constructed strings nest (`ASN1_MAX_STRING_NEST`).
    static let maximumStringNesting = 5

    /// The contents OpenSSL's decoder takes from an element of a string type
    /// (`asn1_d2i_ex_primitive`, `asn1_collect`): a primitive element's contents; a
    /// constructed one's segments, whatever their tags, the contents of the primitive
    /// ones concatenated in order, constructed ones nested at most five deep.
    public static func collect(_ element: BERElement) throws(BERError) -> [UInt8] {
        guard element.tag.isConstructed else { return Array(element.contents) }
        var bytes: [UInt8] = []
        try collect(element, depth: 0, into: &bytes)
        return bytes
    }

    private static func collect(_ element: BERElement, depth: Int, into bytes: inout [UInt8]) throws(BERError) {
        var segments = try element.contentsReader()
        while !segments.isAtEnd {
            let segment = try segments.readElement()
            guard segment.tag.isConstructed else {
                bytes += segment.contents
                continue
            }
            guard depth < maximumStringNesting else {
                throw BERError(.invalidConstruction, at: segment.offset,
                               "constructed string segments nested more than \(maximumStringNesting) deep")
            }
            try collect(segment, depth: depth + 1, into: &bytes)
        }
    }

    /// BER as OpenSSL's decoder of ANY reads it: any non-zero BOOLEAN, INTEGERs minimal.
    static let anyRules = BERRules(.ber, requireMinimalIntegers: true)

    /// The contents checks OpenSSL's decoder makes on an ANY of a primitive universal
    /// type (`asn1_ex_c2i`), which d2i_PKCS7 and d2i_X509 apply to algorithm parameters,
    /// whatever the encoding rules: NULL empty; BOOLEAN one octet; INTEGER and ENUMERATED
    /// not empty, without a redundant leading octet; OBJECT IDENTIFIER not empty, its last
    /// octet final, no subidentifier starting with 0x80; BIT STRING an unused-bits
    /// octet of 0 to 7 first; BMPString an even length; UniversalString a multiple of four.
    static func checkPrimitiveContents(_ element: BERElement) throws(BERError) {
        switch element.tag.number {
        case 1, 2, 5, 10:
            // The tree parser's checks of these types, in the rules OpenSSL's ANY follows.
            var reader = BERReader(element.encodedBytes, rules: anyRules)
            try reader.readElement().checkPrimitiveContents()
        default:
            try checkContents(element.tag.number, Array(element.contents), of: element)
        }
    }

    /// The checks of `checkPrimitiveContents` on the contents of a universal type
    /// `number` other than BOOLEAN, INTEGER, NULL and ENUMERATED (for a constructed
    /// string: its collected contents).
    public static func checkContents(_ number: UInt32, _ contents: [UInt8], of element: BERElement) throws(BERError) {
        func refuse(_ code: BERError.Code, _ reason: String) throws(BERError) -> Never {
            throw BERError(code, at: element.offset, "\(element.tag): \(reason)")
        }
        switch number {
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
}
