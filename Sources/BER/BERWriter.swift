/// Builds encodings. DER by default: minimal definite lengths, primitive strings,
/// SET OF sorted when asked. The knobs produce the real-world and hostile BER the
/// forge needs: indefinite lengths (Xcode receipts), non-minimal length octets,
/// segmented OCTET STRINGs, unsorted SETs.
public struct BERWriter: Sendable {
    /// How the length of an element is written.
    public enum LengthForm: Hashable, Sendable {
        /// The shortest definite form (DER).
        case minimal
        /// Definite, long form with exactly this many length octets (1...8) even
        /// where fewer would do. Precondition: the length fits.
        case longForm(octets: Int)
        /// `0x80`, then the contents, then `00 00`. Constructed elements only.
        case indefinite
    }

    /// The encoding written so far.
    public private(set) var bytes: [UInt8] = []
    /// The form used for constructed elements that do not name one.
    public var constructedLengthForm: LengthForm
    /// The form used for primitive elements that do not name one (never indefinite).
    public var primitiveLengthForm: LengthForm

    /// A writer whose elements use these length forms unless a call names another. Precondition: primitives are not indefinite.
    public init(constructedLengthForm: LengthForm = .minimal, primitiveLengthForm: LengthForm = .minimal) {
        precondition(primitiveLengthForm != .indefinite, "primitive elements cannot have indefinite lengths")
        self.constructedLengthForm = constructedLengthForm
        self.primitiveLengthForm = primitiveLengthForm
    }

    /// Makes room for `count` more bytes at once, where the caller knows about how
    /// much it will write (the writer otherwise grows by doubling, copying each time).
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    // MARK: Elements

    /// Appends an already-encoded element (or several) verbatim.
    public mutating func appendEncoded<C: Collection<UInt8>>(_ encoded: C) {
        bytes.append(contentsOf: encoded)
    }

    /// Appends a primitive element of `tag` around `contents`, with `lengthForm` or the writer's primitive form. Precondition: not indefinite.
    public mutating func appendPrimitive<C: Collection<UInt8>>(_ tag: BERTag, contents: C, lengthForm: LengthForm? = nil) {
        let form = lengthForm ?? primitiveLengthForm
        precondition(form != .indefinite, "primitive elements cannot have indefinite lengths")
        appendIdentifier(tag.constructed(false))
        appendLength(contents.count, form: form)
        bytes.append(contentsOf: contents)
    }

    /// Appends a constructed element whose children `body` writes (with this
    /// writer's settings). They are written in place, after a one-octet length
    /// that is widened once their size is known: no buffer per element. If `body`
    /// throws, nothing of the element is left.
    public mutating func appendConstructed(
        _ tag: BERTag,
        lengthForm: LengthForm? = nil,
        _ body: (inout BERWriter) throws -> Void
    ) rethrows {
        let form = lengthForm ?? constructedLengthForm
        let start = bytes.count
        appendIdentifier(tag.constructed(true))
        let lengthStart = bytes.count
        bytes.append(0x80)  // one octet for the length: already the indefinite form
        do {
            try body(&self)
        } catch {
            bytes.removeSubrange(start...)
            throw error
        }
        if form == .indefinite {
            bytes.append(0)
            bytes.append(0)
            return
        }
        let length = bytes.count - (lengthStart + 1)
        let count = BERWriter.lengthOctets(length, form: form)
        if count > 1 { bytes.insert(contentsOf: repeatElement(0, count: count - 1), at: lengthStart + 1) }
        setLength(length, form: form, octets: count, at: lengthStart)
    }

    /// Appends a constructed element around already-encoded children.
    public mutating func appendConstructed<C: Collection<UInt8>>(_ tag: BERTag, contents: C, lengthForm: LengthForm? = nil) {
        let form = lengthForm ?? constructedLengthForm
        appendIdentifier(tag.constructed(true))
        appendLength(contents.count, form: form)
        bytes.append(contentsOf: contents)
        if form == .indefinite { bytes.append(contentsOf: [0, 0]) }
    }

    /// Appends a SEQUENCE whose contents `body` writes.
    public mutating func appendSequence(lengthForm: LengthForm? = nil, _ body: (inout BERWriter) throws -> Void) rethrows {
        try appendConstructed(.sequence, lengthForm: lengthForm, body)
    }

    /// The order a SET's elements are written in.
    public enum SetOrder: Sendable {
        /// Ascending order of the elements' encodings (DER SET OF, X.690 11.6).
        case sorted
        /// The order `body` wrote them in (what App Store receipts do with their
        /// certificate SET).
        case asWritten
    }

    /// Appends a SET (or SET OF), each child written by one call in `elements`.
    public mutating func appendSet(
        _ tag: BERTag = .set,
        order: SetOrder,
        lengthForm: LengthForm? = nil,
        elements: [(inout BERWriter) -> Void]
    ) {
        var encodings: [[UInt8]] = []
        for element in elements {
            var inner = BERWriter(constructedLengthForm: constructedLengthForm, primitiveLengthForm: primitiveLengthForm)
            element(&inner)
            encodings.append(inner.bytes)
        }
        appendSet(tag, encodedElements: encodings, order: order, lengthForm: lengthForm)
    }

    /// Appends a SET around already-encoded elements.
    public mutating func appendSet(_ tag: BERTag = .set, encodedElements: [[UInt8]], order: SetOrder,
                                   lengthForm: LengthForm? = nil) {
        let ordered = order == .sorted ? encodedElements.sorted(by: derSetOrder) : encodedElements
        appendConstructed(tag, contents: ordered.joined(), lengthForm: lengthForm)
    }

    // MARK: Typed values

    /// An INTEGER in minimal two's complement.
    public mutating func appendInteger(_ value: Int64, tag: BERTag = .integer) {
        // Two's complement, big-endian, without redundant leading octets.
        var count = 8
        while count > 1 {
            let top = UInt8(truncatingIfNeeded: value >> (8 * (count - 1)))
            let next = UInt8(truncatingIfNeeded: value >> (8 * (count - 2)))
            guard (top == 0 && next & 0x80 == 0) || (top == 0xFF && next & 0x80 != 0) else { break }
            count -= 1
        }
        appendPrimitive(tag, contents: (0..<count).reversed().lazy.map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// A non-negative INTEGER from its big-endian magnitude (leading zeros dropped,
    /// a zero octet added where the top bit is set).
    public mutating func appendUnsignedInteger<C: Collection<UInt8>>(magnitude: C, tag: BERTag = .integer) {
        var contents = Array(magnitude.drop(while: { $0 == 0 }))
        if contents.isEmpty || contents[0] & 0x80 != 0 { contents.insert(0, at: 0) }
        appendPrimitive(tag, contents: contents)
    }

    /// A BOOLEAN, DER's FF or 00.
    public mutating func appendBoolean(_ value: Bool, tag: BERTag = .boolean) {
        appendPrimitive(tag, contents: CollectionOfOne(value ? 0xFF : 0x00))
    }

    /// A NULL (empty contents).
    public mutating func appendNull(tag: BERTag = .null) {
        appendPrimitive(tag, contents: EmptyCollection<UInt8>())
    }

    /// An OBJECT IDENTIFIER.
    public mutating func appendObjectIdentifier(_ oid: OID, tag: BERTag = .objectIdentifier) {
        appendPrimitive(tag, contents: oid.encoded)
    }

    /// An OCTET STRING; with `segmentSize`, a constructed one made of primitive
    /// segments of at most that many bytes (BER, as Xcode receipts carry their
    /// payload), using the writer's constructed length form.
    public mutating func appendOctetString<C: Collection<UInt8>>(_ value: C, tag: BERTag = .octetString,
                                                                segmentSize: Int? = nil) {
        guard let segmentSize else {
            appendPrimitive(tag, contents: value)
            return
        }
        precondition(segmentSize > 0, "segment size must be positive")
        let bytes = Array(value)
        appendConstructed(tag) { inner in
            var start = 0
            repeat {
                let end = min(start + segmentSize, bytes.count)
                inner.appendPrimitive(.octetString, contents: bytes[start..<end])
                start = end
            } while start < bytes.count
        }
    }

    /// A BIT STRING: the unused-bits octet, then the bytes.
    public mutating func appendBitString(_ value: BitString, tag: BERTag = .bitString) {
        appendPrimitive(tag, contents: [UInt8(value.unusedBits)] + Array(value.bytes))
    }

    /// A UTF8String.
    public mutating func appendUTF8String(_ value: String, tag: BERTag = .utf8String) {
        appendPrimitive(tag, contents: Array(value.utf8))
    }

    /// Precondition: ASCII only.
    public mutating func appendIA5String(_ value: String, tag: BERTag = .ia5String) {
        precondition(value.utf8.allSatisfy { $0 < 0x80 }, "IA5String must be ASCII")
        appendPrimitive(tag, contents: Array(value.utf8))
    }

    /// Precondition: PrintableString characters only.
    public mutating func appendPrintableString(_ value: String, tag: BERTag = .printableString) {
        precondition(value.utf8.allSatisfy(isPrintableStringCharacter), "not a PrintableString: \(value)")
        appendPrimitive(tag, contents: Array(value.utf8))
    }

    /// A UTCTime (`YYMMDDhhmmssZ`). Precondition: the year is 1950-2049.
    public mutating func appendUTCTime(_ time: ASN1Time, tag: BERTag = .utcTime) {
        appendPrimitive(tag, contents: time.utcTimeBytes)
    }

    /// A GeneralizedTime (`YYYYMMDDhhmmss[.f]Z`).
    public mutating func appendGeneralizedTime(_ time: ASN1Time, tag: BERTag = .generalizedTime) {
        appendPrimitive(tag, contents: time.generalizedTimeBytes)
    }

    /// X.509 Time: UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5).
    public mutating func appendTime(_ time: ASN1Time) {
        if (1950...2049).contains(time.year) { appendUTCTime(time) } else { appendGeneralizedTime(time) }
    }

    // MARK: Identifier and length

    mutating func appendIdentifier(_ tag: BERTag) {
        let head = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
        guard tag.number >= 0x1F else {
            bytes.append(head | UInt8(tag.number))
            return
        }
        bytes.append(head | 0x1F)
        var digits: [UInt8] = [UInt8(tag.number & 0x7F)]
        var rest = tag.number >> 7
        while rest > 0 {
            digits.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(contentsOf: digits.reversed())
    }

    mutating func appendLength(_ length: Int, form: LengthForm) {
        let count = BERWriter.lengthOctets(length, form: form)
        if count == 1 {
            // The common case, one octet, appended as it is.
            bytes.append(form == .indefinite ? 0x80 : UInt8(length))
            return
        }
        let at = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        setLength(length, form: form, octets: count, at: at)
    }

    /// How many octets `length` takes in `form`: one for the short and indefinite
    /// forms, one plus the length's own octets for the long form.
    static func lengthOctets(_ length: Int, form: LengthForm) -> Int {
        switch form {
        case .indefinite:
            return 1
        case .minimal where length < 0x80:
            return 1
        case .minimal:
            return 1 + (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
        case .longForm(let octets):
            precondition((1...8).contains(octets) && (octets == 8 || length >> (8 * octets) == 0),
                         "length \(length) does not fit in \(octets) octets")
            return 1 + octets
        }
    }

    /// Writes `length` in `form` over the `count` octets (`lengthOctets`) at `index`:
    /// what `appendLength` appends, and what `appendConstructed` writes once the
    /// contents after it are known.
    private mutating func setLength(_ length: Int, form: LengthForm, octets count: Int, at index: Int) {
        if form == .indefinite {
            bytes[index] = 0x80
        } else if count == 1 {
            bytes[index] = UInt8(length)
        } else {
            bytes[index] = 0x80 | UInt8(count - 1)
            for octet in 1..<count {
                bytes[index + octet] = UInt8(truncatingIfNeeded: length >> (8 * (count - 1 - octet)))
            }
        }
    }
}
