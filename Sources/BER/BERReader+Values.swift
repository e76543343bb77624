/// A BIT STRING: the bytes and how many bits of the last byte are unused.
public struct BitString: Hashable, Sendable {
    /// The contents after the unused-bits octet.
    public var bytes: ArraySlice<UInt8>
    /// How many low bits of the last byte are padding (0-7).
    public var unusedBits: Int

    /// A BIT STRING of `bytes` with `unusedBits` padding bits at the end.
    public init(bytes: ArraySlice<UInt8>, unusedBits: Int = 0) {
        self.bytes = bytes
        self.unusedBits = unusedBits
    }
}

/// Typed readers. Each reads one element with the universal tag of its type, or
/// with `tag` where the schema tags it implicitly, and applies the rules of
/// `self.rules` to its contents.
extension BERReader {
    // MARK: INTEGER

    /// The two's-complement contents octets of an INTEGER of any size (no copy).
    /// Empty contents are refused in every mode; redundant leading octets in DER.
    @inlinable
    public mutating func readIntegerBytes(tag: BERTag = .integer) throws(BERError) -> ArraySlice<UInt8> {
        let element = try readElement(tag)
        return try element.integerContents()
    }

    /// An INTEGER that must fit in `Int64`.
    @inlinable
    public mutating func readInt64(tag: BERTag = .integer) throws(BERError) -> Int64 {
        let extent = try readExtent(tag)
        return try BERReader.int64(in: storage, extent: extent, rules: rules)
    }

    /// A non-negative INTEGER as unsigned big-endian magnitude bytes without leading
    /// zeros (what an RSA modulus or a serial number needs); negative values refused.
    @inlinable
    public mutating func readUnsignedIntegerMagnitude(tag: BERTag = .integer) throws(BERError) -> ArraySlice<UInt8> {
        let element = try readElement(tag)
        var contents = try element.integerContents()
        guard contents.first! & 0x80 == 0 else {
            try BERError.fail(.integerOverflow, at: element.offset, "negative INTEGER where a non-negative one is required")
        }
        while contents.count > 1 && contents.first == 0 { contents = contents.dropFirst() }
        return contents
    }

    // MARK: BOOLEAN, NULL

    /// A BOOLEAN. DER accepts only 00 and FF; BER any non-zero octet as true.
    @inlinable
    public mutating func readBoolean(tag: BERTag = .boolean) throws(BERError) -> Bool {
        let element = try readElement(tag)
        guard element.contents.count == 1 else {
            try BERError.fail(.invalidBoolean, at: element.offset, "BOOLEAN must have one contents octet")
        }
        let value = element.contents.first!
        if !rules.allowsNonCanonicalBoolean && value != 0 && value != 0xFF {
            try BERError.fail(.invalidBoolean, at: element.offset, "DER BOOLEAN must be 00 or FF")
        }
        return value != 0
    }

    /// A NULL, which must be empty.
    @inlinable
    public mutating func readNull(tag: BERTag = .null) throws(BERError) {
        let element = try readElement(tag)
        guard element.contents.isEmpty else {
            try BERError.fail(.invalidNull, at: element.offset, "NULL must be empty")
        }
    }

    // MARK: OBJECT IDENTIFIER

    /// An OBJECT IDENTIFIER, its arcs checked to be minimally encoded.
    @inlinable
    public mutating func readObjectIdentifier(tag: BERTag = .objectIdentifier) throws(BERError) -> OID {
        let element = try readElement(tag)
        return try OID(contents: element.contents, offset: element.offset)
    }

    // MARK: Strings

    /// The value of an OCTET STRING. Primitive: a slice of the input (no copy).
    /// Constructed (BER only): its segments concatenated into new storage.
    @inlinable
    public mutating func readOctetString(tag: BERTag = .octetString) throws(BERError) -> ArraySlice<UInt8> {
        try readStringBytes(tag)
    }

    /// A BIT STRING. Constructed BIT STRINGs (BER) are refused: nothing here uses them.
    public mutating func readBitString(tag: BERTag = .bitString) throws(BERError) -> BitString {
        let element = try readElement(tag.constructed(false))
        guard let unused = element.contents.first, unused < 8 else {
            try BERError.fail(.invalidBitString, at: element.offset, "BIT STRING needs an unused-bits octet 0...7")
        }
        let bytes = element.contents.dropFirst()
        if bytes.isEmpty && unused != 0 {
            try BERError.fail(.invalidBitString, at: element.offset, "empty BIT STRING with unused bits")
        }
        if !rules.allowsUnusedBitsSet, let last = bytes.last, last & UInt8((1 << unused) - 1) != 0 {
            try BERError.fail(.invalidBitString, at: element.offset, "DER requires unused bits to be zero")
        }
        return BitString(bytes: bytes, unusedBits: Int(unused))
    }

    /// A UTF8String, checked to be valid UTF-8.
    public mutating func readUTF8String(tag: BERTag = .utf8String) throws(BERError) -> String {
        String(decoding: try readUTF8StringBytes(tag: tag), as: UTF8.self)
    }

    /// A UTF8String's bytes, checked to be valid UTF-8 without building a `String`
    /// (for callers that only validate, such as the receipt payload decoder).
    public mutating func readUTF8StringBytes(tag: BERTag = .utf8String) throws(BERError) -> ArraySlice<UInt8> {
        let offset = self.offset
        let bytes = try readStringBytes(tag)
        guard isASCII(bytes) || String(validating: bytes, as: UTF8.self) != nil else {
            try BERError.fail(.invalidString, at: offset, "UTF8String is not valid UTF-8")
        }
        return bytes
    }

    /// An IA5String, checked to be ASCII.
    public mutating func readIA5String(tag: BERTag = .ia5String) throws(BERError) -> String {
        String(decoding: try readIA5StringBytes(tag: tag), as: UTF8.self)
    }

    /// An IA5String's bytes, checked to be ASCII, without building a `String`.
    public mutating func readIA5StringBytes(tag: BERTag = .ia5String) throws(BERError) -> ArraySlice<UInt8> {
        let offset = self.offset
        let bytes = try readStringBytes(tag)
        guard isASCII(bytes) else {
            try BERError.fail(.invalidString, at: offset, "IA5String has a byte above 0x7F")
        }
        return bytes
    }

    /// A PrintableString, checked against its character set.
    public mutating func readPrintableString(tag: BERTag = .printableString) throws(BERError) -> String {
        let offset = self.offset
        let bytes = try readStringBytes(tag)
        guard bytes.allSatisfy(isPrintableStringCharacter) else {
            try BERError.fail(.invalidString, at: offset, "PrintableString has a character outside its set")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of any string type with `tag`, concatenating the segments of a
    /// constructed encoding (BER only, X.690 8.21.5; segments must carry the same
    /// universal tag and may nest, bounded by `maximumDepth`).
    @inlinable
    public mutating func readStringBytes(_ tag: BERTag) throws(BERError) -> ArraySlice<UInt8> {
        guard let next = try peekTag() else {
            try BERError.unexpectedTag(at: offset, expected: tag, found: nil)
        }
        guard next.tagClass == tag.tagClass, next.number == tag.number else {
            try BERError.unexpectedTag(at: offset, expected: tag, found: next)
        }
        let extent = try readExtent()
        // Primitive (always in DER, nearly always in BER): a slice, no element built.
        if !extent.tag.isConstructed { return storage[extent.contentsRange] }
        return try BERElement(extent, storage: storage, rules: rules)
            .stringValue(segmentTag: BERTag(.universal, tag.tagClass == .universal ? tag.number : 4, constructed: false))
    }

    // MARK: Times

    /// A UTCTime, in the forms `ASN1Time` accepts under these rules.
    public mutating func readUTCTime(tag: BERTag = .utcTime) throws(BERError) -> ASN1Time {
        let element = try readElement(tag)
        return try ASN1Time(utcTime: element.contents, rules: rules, offset: element.offset)
    }

    /// A GeneralizedTime, in the forms `ASN1Time` accepts under these rules.
    public mutating func readGeneralizedTime(tag: BERTag = .generalizedTime) throws(BERError) -> ASN1Time {
        let element = try readElement(tag)
        return try ASN1Time(generalizedTime: element.contents, rules: rules, offset: element.offset)
    }

    /// X.509 `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }`.
    public mutating func readTime() throws(BERError) -> ASN1Time {
        if try peekTag() == .generalizedTime { return try readGeneralizedTime() }
        return try readUTCTime()
    }
}

extension BERElement {
    /// The contents of an INTEGER element, checked (see `BERReader.readIntegerBytes`).
    @inlinable
    public func integerContents() throws(BERError) -> ArraySlice<UInt8> {
        storage[try BERReader.integerRange(in: storage, extent: extent, rules: rules)]
    }

    /// The value of an INTEGER element that must fit in `Int64`.
    @inlinable
    public func int64Value() throws(BERError) -> Int64 {
        try BERReader.int64(in: storage, extent: extent, rules: rules)
    }

    /// The value of a string element of the same class and number as
    /// `segmentTag`: its contents if primitive, its segments concatenated if
    /// constructed (BER only). Iterative: nested segment levels are walked with an
    /// explicit stack whose depth the element's own depth cap bounds.
    @inlinable
    public func stringValue(segmentTag: BERTag) throws(BERError) -> ArraySlice<UInt8> {
        guard tag.isConstructed else { return contents }
        guard rules.allowsConstructedStrings else {
            try BERError.constructedString(tag, at: offset)
        }
        var value: [UInt8] = []
        value.reserveCapacity(contents.count)
        var stack = [try contentsReader()]
        while var reader = stack.popLast() {
            if reader.isAtEnd { continue }
            let segment = try reader.readElement()
            stack.append(reader)
            guard segment.tag.tagClass == .universal, segment.tag.number == segmentTag.number else {
                try BERError.fail(.unexpectedTag, at: segment.offset,
                               "segment of a constructed \(tag) is \(segment.tag)")
            }
            if segment.tag.isConstructed {
                stack.append(try segment.contentsReader())
            } else {
                value.append(contentsOf: segment.contents)
            }
        }
        return value[...]
    }
}

@inlinable
func isPrintableStringCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
         UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    case UInt8(ascii: " "), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"),
         UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
         UInt8(ascii: "="), UInt8(ascii: "?"):
        return true
    default:
        return false
    }
}

extension BERReader {
    /// The contents of an INTEGER, checked: primitive, not empty, and (DER) no
    /// redundant leading octet. Shared by the reader and `BERElement`; works on
    /// indices, so reading an INTEGER builds no element and no slice.
    @inlinable
    static func integerRange(in storage: ArraySlice<UInt8>, extent: BERExtent,
                             rules: BERRules) throws(BERError) -> Range<Int> {
        guard !extent.tag.isConstructed else {
            try BERError.fail(.invalidConstruction, at: extent.offset, "INTEGER must be primitive")
        }
        let contents = extent.contentsRange
        guard !contents.isEmpty else {
            try BERError.fail(.emptyInteger, at: extent.offset, "INTEGER has no contents octets")
        }
        if !rules.allowsNonMinimalIntegers && contents.count > 1 {
            let first = storage[contents.lowerBound], second = storage[contents.lowerBound + 1]
            if (first == 0 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) {
                try BERError.fail(.nonMinimalInteger, at: extent.offset, "INTEGER has a redundant leading octet")
            }
        }
        return contents
    }

    /// The value of an INTEGER that must fit in `Int64`. Redundant sign octets (legal
    /// in BER) do not count against the 8-octet limit.
    @inlinable
    static func int64(in storage: ArraySlice<UInt8>, extent: BERExtent, rules: BERRules) throws(BERError) -> Int64 {
        var range = try integerRange(in: storage, extent: extent, rules: rules)
        let negative = storage[range.lowerBound] & 0x80 != 0
        while range.count > 1, storage[range.lowerBound] == (negative ? 0xFF : 0),
              (storage[range.lowerBound + 1] & 0x80 != 0) == negative {
            range = range.dropFirst()
        }
        guard range.count <= 8 else {
            try BERError.integerTooLarge(at: extent.offset, octets: range.count)
        }
        var value: Int64 = negative ? -1 : 0
        for index in range { value = value << 8 | Int64(storage[index]) }
        return value
    }
}

/// True if every byte is below 0x80: eight bytes per step.
@inline(__always)
func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withUnsafeBytes { raw in
        var index = 0
        var high: UInt64 = 0
        while index &+ 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index &+= 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
