/// Which encoding rules a parser enforces. Each rule that `ber` relaxes is named, so
/// a reader of the parser sees one check per rule instead of scattered branches.
public struct BERRules: Hashable, Sendable {
    /// The family of rules: BER, which real receipts need, or DER, which certificates and signed attributes must follow.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Basic Encoding Rules, as real receipts need: indefinite lengths (with a
        /// mandatory end-of-contents marker), non-minimal length octets, constructed
        /// (segmented) strings, any non-zero BOOLEAN, unpadded-or-padded INTEGERs.
        case ber
        /// Distinguished Encoding Rules: minimal definite lengths, primitive strings,
        /// BOOLEAN 00/FF, minimal INTEGERs; SET OF order checked only on request.
        case der
    }

    /// How deep elements may nest. swift-asn1 uses 50 and BoringSSL's BER converter
    /// 128; receipts need about 12 (certificate extensions inside a PKCS#7 container).
    public static let defaultMaximumDepth = 64

    /// Length octets beyond this many (after the 0x8n octet) are refused outright.
    public static let maximumLengthOctets = 8

    /// BER or DER; each `allows…` property below follows from it.
    public var mode: Mode
    /// How deep elements may nest before `nestingTooDeep` is thrown.
    public var maximumDepth: Int
    /// DER requires the elements of a SET OF in ascending order of their encodings.
    /// Real App Store receipts put their certificate SET in chain order (leaf,
    /// intermediate, root), which is not DER order, so `der` checks the order only
    /// when this is set. Checked by `BERReader.readSet` and the tree parser.
    public var requireSortedSets: Bool
    /// X.690 8.3.2 forbids a redundant leading octet in an INTEGER in BER too, and
    /// OpenSSL's decoder refuses one; `ber` accepts it unless this is set (DER always
    /// refuses it). The PKCS#7 container sets it; the receipt payload does not.
    public var requireMinimalIntegers: Bool

    /// Rules of `mode`, with the nesting limit and the two optional strictness checks.
    public init(_ mode: Mode, maximumDepth: Int = BERRules.defaultMaximumDepth, requireSortedSets: Bool = false,
                requireMinimalIntegers: Bool = false) {
        self.mode = mode
        self.maximumDepth = maximumDepth
        self.requireSortedSets = requireSortedSets
        self.requireMinimalIntegers = requireMinimalIntegers
    }

    /// BER with the default depth and no optional checks.
    public static let ber = BERRules(.ber)
    /// DER with the default depth, SET OF order unchecked.
    public static let der = BERRules(.der)

    /// Indefinite lengths (`0x80` … `00 00`): BER only.
    @inlinable public var allowsIndefiniteLengths: Bool { mode == .ber }
    /// Length octets longer than needed: BER only.
    @inlinable public var allowsNonMinimalLengths: Bool { mode == .ber }
    /// Strings in segments (constructed encoding): BER only.
    @inlinable public var allowsConstructedStrings: Bool { mode == .ber }
    /// A BOOLEAN other than 00 or FF: BER only.
    @inlinable public var allowsNonCanonicalBoolean: Bool { mode == .ber }
    /// An INTEGER with a redundant leading octet: BER without `requireMinimalIntegers`.
    @inlinable public var allowsNonMinimalIntegers: Bool { mode == .ber && !requireMinimalIntegers }
    /// A BIT STRING whose unused bits are not zero: BER only.
    @inlinable public var allowsUnusedBitsSet: Bool { mode == .ber }
}
