extension BERError {
    /// The part of an error that says why, in 23 bytes (see `BERError`'s layout):
    /// the reader's own errors keep the values their message is made of (`facts`),
    /// other errors their text, and an error with a path holds both in a `Box`,
    /// made when a path is first added (the reader itself adds none).
    @usableFromInline
    enum Detail: Sendable {
        case text(String)
        case facts(Facts)
        case boxed(Box)

        /// `detail` with `path`, boxed when the path is not empty.
        init(_ detail: Detail, path: [String]) {
            self = path.isEmpty ? detail : .boxed(Box(detail: detail, path: path))
        }

        /// A `Facts` detail (22 bytes: two integers, one tag and which message).
        @usableFromInline
        static func facts(_ kind: Facts.Kind, tag: BERTag? = nil, first: Int = 0, second: Int = 0) -> Detail {
            .facts(Facts(kind: kind, tag: tag, first: first, second: second))
        }

        /// A tag expected and the tag found (nil: the end of the contents).
        @usableFromInline
        static func unexpectedTag(expected: BERTag, found: BERTag?) -> Detail {
            .facts(.unexpectedTag, tag: expected, first: Int(found?.number ?? 0),
                   second: found.map { Int(Facts.bits($0)) } ?? -1)
        }

        /// Without the box.
        var unboxed: Detail {
            if case .boxed(let box) = self { return box.detail }
            return self
        }

        /// The reason's text for an error with `code`.
        func text(_ code: Code) -> String {
            switch self {
            case .text(let text): return text
            case .facts(let facts): return facts.text(code)
            case .boxed(let box): return box.detail.text(code)
            }
        }
    }

    /// A detail with a path: made on the way out of `withBERPath`, never by the reader.
    /// Its path changes only while one error alone holds it (`prependPath`).
    @usableFromInline
    final class Box: @unchecked Sendable {
        let detail: Detail
        var path: [String]

        init(detail: Detail, path: [String]) {
            self.detail = detail.unboxed
            self.path = path
        }
    }

    /// The values of one of the reader's messages. Integers are stored as `Int`
    /// (a `UInt64` by its bit pattern); the tag as its number and a byte holding its
    /// class and constructed bit.
    @usableFromInline
    struct Facts: Sendable {
        @usableFromInline
        enum Kind: UInt8, Sendable {
            case shortRead, length, tagNumber, depth, contentsPastEnd, unexpectedTag, trailingData,
                 constructedString, notConstructed, integerTooLarge
        }

        var first: Int
        var second: Int
        var tagNumber: UInt32
        /// `bits(tag)`, or `noTag`.
        var tagBits: UInt8
        var kind: Kind

        static let noTag: UInt8 = 0xFF

        @usableFromInline
        init(kind: Kind, tag: BERTag?, first: Int, second: Int) {
            self.first = first
            self.second = second
            self.tagNumber = tag?.number ?? 0
            self.tagBits = tag.map(Facts.bits) ?? Facts.noTag
            self.kind = kind
        }

        @usableFromInline
        static func bits(_ tag: BERTag) -> UInt8 { tag.tagClass.rawValue << 1 | (tag.isConstructed ? 1 : 0) }

        static func tag(number: UInt32, bits: UInt8) -> BERTag {
            BERTag(BERTag.TagClass(rawValue: bits >> 1 & 3) ?? .universal, number, constructed: bits & 1 != 0)
        }

        var tag: BERTag { Facts.tag(number: tagNumber, bits: tagBits) }

        func text(_ code: Code) -> String {
            switch kind {
            case .shortRead:
                return "needs \(first) bytes, \(second) left"
            case .length:
                let value = UInt64(UInt(bitPattern: second))
                switch code {
                case .indefiniteLengthOnPrimitive: return "\(tag) is primitive and cannot have an indefinite length"
                case .indefiniteLengthNotAllowed: return "DER requires definite lengths"
                case .lengthTooLong:
                    return first == 0x7F ? "length octet 0xFF is reserved"
                                         : "\(first) length octets (at most \(BERRules.maximumLengthOctets))"
                case .lengthOverflow: return "length \(value) does not fit in Int"
                default: return "length \(value) of \(tag) encoded in \(first) octets, more than needed"
                }
            case .tagNumber:
                if code == .tagNumberTooLarge { return "tag number exceeds 2^32-1" }
                return second != 0 ? "tag number \(UInt64(UInt(bitPattern: first))) must use the low-tag form"
                                   : "tag number has a leading zero digit"
            case .depth:
                return "nesting deeper than \(first)"
            case .contentsPastEnd:
                return "\(tag) declares \(first) contents bytes, \(second) available"
            case .unexpectedTag:
                guard second >= 0 else { return "expected \(tag), found the end of the contents" }
                let found = Facts.tag(number: UInt32(truncatingIfNeeded: first), bits: UInt8(second))
                if found.tagClass == tag.tagClass, found.number == tag.number {
                    // The same type in the other form: say which form each is.
                    func form(_ tag: BERTag) -> String { tag.isConstructed ? "constructed" : "primitive" }
                    return "expected a \(form(tag)) \(tag), found a \(form(found)) one"
                }
                return "expected \(tag), found \(found)"
            case .trailingData:
                return "\(first) unexpected bytes after the last element"
            case .constructedString:
                return "DER forbids constructed \(tag)"
            case .notConstructed:
                return "\(tag) is primitive, a constructed element was expected"
            case .integerTooLarge:
                return "INTEGER of \(first) octets does not fit in 64 bits"
            }
        }
    }
}
