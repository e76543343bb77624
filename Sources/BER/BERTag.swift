/// An identifier octet(s) decoded: class, tag number and the constructed bit.
public struct BERTag: Hashable, Sendable, CustomStringConvertible {
    /// The class of a tag, bits 8-7 of the identifier octet.
    public enum TagClass: UInt8, Sendable, CaseIterable {
        /// Types X.680 defines (INTEGER, SEQUENCE, …).
        case universal = 0
        /// Types an application defines once for a whole protocol.
        case application = 1
        /// `[n]` tags, meaningful inside the enclosing type (CMS and X.509 optional fields).
        case contextSpecific = 2
        /// Types a private organisation defines.
        case `private` = 3

        /// The class in bits 8-7 of an identifier octet.
        @inlinable @inline(__always)
        init(topBits octet: UInt8) {
            switch octet >> 6 {
            case 0: self = .universal
            case 1: self = .application
            case 2: self = .contextSpecific
            default: self = .private
            }
        }
    }

    /// The class: universal, application, context-specific or private.
    public var tagClass: TagClass
    /// The tag number within its class.
    public var number: UInt32
    /// True when the contents are elements (SEQUENCE, SET, explicit tags, BER string segments).
    public var isConstructed: Bool

    /// A tag of any class and number.
    @inlinable
    public init(_ tagClass: TagClass, _ number: UInt32, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// A universal tag, primitive unless it is SEQUENCE or SET.
    @inlinable
    public static func universal(_ number: UInt32) -> BERTag {
        BERTag(.universal, number, constructed: number == 16 || number == 17)
    }

    /// `[number]` context-specific, constructed by default (explicit tagging).
    @inlinable
    public static func context(_ number: UInt32, constructed: Bool = true) -> BERTag {
        BERTag(.contextSpecific, number, constructed: constructed)
    }

    /// The `00 00` marker that ends an indefinite-length element.
    public static let endOfContents = BERTag(.universal, 0, constructed: false)
    /// BOOLEAN (universal 1).
    public static let boolean = BERTag.universal(1)
    /// INTEGER (universal 2).
    public static let integer = BERTag.universal(2)
    /// BIT STRING (universal 3).
    public static let bitString = BERTag.universal(3)
    /// OCTET STRING (universal 4).
    public static let octetString = BERTag.universal(4)
    /// NULL (universal 5).
    public static let null = BERTag.universal(5)
    /// OBJECT IDENTIFIER (universal 6).
    public static let objectIdentifier = BERTag.universal(6)
    /// ENUMERATED (universal 10).
    public static let enumerated = BERTag.universal(10)
    /// UTF8String (universal 12).
    public static let utf8String = BERTag.universal(12)
    /// SEQUENCE and SEQUENCE OF (universal 16, constructed).
    public static let sequence = BERTag.universal(16)
    /// SET and SET OF (universal 17, constructed).
    public static let set = BERTag.universal(17)
    /// PrintableString (universal 19).
    public static let printableString = BERTag.universal(19)
    /// T61String, or TeletexString (universal 20), found in old certificate names.
    public static let t61String = BERTag.universal(20)
    /// IA5String (universal 22): ASCII.
    public static let ia5String = BERTag.universal(22)
    /// UTCTime (universal 23).
    public static let utcTime = BERTag.universal(23)
    /// GeneralizedTime (universal 24).
    public static let generalizedTime = BERTag.universal(24)
    /// VisibleString (universal 26).
    public static let visibleString = BERTag.universal(26)
    /// UniversalString (universal 28): UCS-4.
    public static let universalString = BERTag.universal(28)
    /// BMPString (universal 30): UCS-2.
    public static let bmpString = BERTag.universal(30)

    /// The same tag with the constructed bit set or cleared.
    @inlinable
    public func constructed(_ constructed: Bool) -> BERTag {
        BERTag(tagClass, number, constructed: constructed)
    }

    /// True for the universal types whose BER encoding may be constructed from
    /// segments (X.690 8.21): BIT STRING, OCTET STRING and the character strings.
    @inlinable
    public var isStringType: Bool {
        guard tagClass == .universal else { return false }
        switch number {
        case 3, 4, 12, 18...22, 25...28, 30: return true
        default: return false
        }
    }

    /// The X.680 name of a universal tag (`SEQUENCE`, `UTF8String`), or nil.
    public var universalName: String? {
        guard tagClass == .universal else { return nil }
        switch number {
        case 0: return "EOC"
        case 1: return "BOOLEAN"
        case 2: return "INTEGER"
        case 3: return "BIT STRING"
        case 4: return "OCTET STRING"
        case 5: return "NULL"
        case 6: return "OBJECT"
        case 7: return "ObjectDescriptor"
        case 8: return "EXTERNAL"
        case 9: return "REAL"
        case 10: return "ENUMERATED"
        case 11: return "EMBEDDED PDV"
        case 12: return "UTF8String"
        case 13: return "RELATIVE-OID"
        case 16: return "SEQUENCE"
        case 17: return "SET"
        case 18: return "NumericString"
        case 19: return "PrintableString"
        case 20: return "T61String"
        case 21: return "VideotexString"
        case 22: return "IA5String"
        case 23: return "UTCTime"
        case 24: return "GeneralizedTime"
        case 25: return "GraphicString"
        case 26: return "VisibleString"
        case 27: return "GeneralString"
        case 28: return "UniversalString"
        case 30: return "BMPString"
        default: return nil
        }
    }

    /// `SEQUENCE`, `[0]`, `[APPLICATION 3]`, `[PRIVATE 7]`, `[UNIVERSAL 99]`.
    public var description: String {
        switch tagClass {
        case .universal: return universalName ?? "[UNIVERSAL \(number)]"
        case .application: return "[APPLICATION \(number)]"
        case .contextSpecific: return "[\(number)]"
        case .private: return "[PRIVATE \(number)]"
        }
    }
}
