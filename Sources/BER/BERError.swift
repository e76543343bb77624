/// A decoding failure: what went wrong (`code`), where (`offset`, a byte index into
/// the buffer that was parsed, and `path`, the schema fields being read), and a
/// human-readable `reason`.
///
/// Errors compare equal by `code` only, so tests can match `.truncated` without
/// depending on offsets or wording; assert `offset` separately where it matters.
public struct BERError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        /// The input ends inside an identifier or length.
        case truncated
        /// A definite length runs past the end of the enclosing element or input.
        case lengthExceedsInput
        /// More than `BERRules.maximumLengthOctets` length octets, or the reserved 0xFF.
        case lengthTooLong
        /// The length does not fit in a (non-negative) `Int`.
        case lengthOverflow
        /// DER: a length encoded in more octets than needed.
        case nonMinimalLength
        /// DER: an indefinite length.
        case indefiniteLengthNotAllowed
        /// An indefinite length on a primitive element (invalid in BER too).
        case indefiniteLengthOnPrimitive
        /// An indefinite-length element whose end-of-contents marker never comes.
        case missingEndOfContents
        /// An end-of-contents marker where an element was expected (top level, or
        /// inside a definite-length element).
        case unexpectedEndOfContents
        /// Tag [UNIVERSAL 0] that is not exactly `00 00` (constructed, a non-zero
        /// length, or a zero length in long form such as `00 81 00`).
        case invalidEndOfContents
        /// A tag number above 2^32-1.
        case tagNumberTooLarge
        /// A tag number in high-tag form that is not minimal (leading 0x80 octet, or
        /// a number below 31).
        case nonMinimalTag
        /// Nesting deeper than `BERRules.maximumDepth`.
        case depthLimitExceeded
        /// Bytes left over after the last element of a container or of the input.
        case trailingData
        /// An element other than the one the schema expects (or none at all).
        case unexpectedTag
        /// DER: a constructed string type (OCTET STRING, BIT STRING, character string).
        case constructedStringNotAllowed
        /// A BOOLEAN whose contents are not one octet (DER: not 00 or FF).
        case invalidBoolean
        /// An INTEGER with no contents octets.
        case emptyInteger
        /// DER: an INTEGER with redundant leading 00 or FF octets.
        case nonMinimalInteger
        /// An INTEGER too large for the requested Swift type.
        case integerOverflow
        /// A malformed OBJECT IDENTIFIER.
        case invalidObjectIdentifier
        /// A character string whose bytes are not valid for its type.
        case invalidString
        /// A malformed UTCTime or GeneralizedTime.
        case invalidTime
        /// A malformed BIT STRING.
        case invalidBitString
        /// A NULL with contents.
        case invalidNull
        /// `BERRules.requireSortedSets`: a SET OF not in DER order.
        case setNotSorted
        /// A primitive element where a constructed one is required, or vice versa.
        case invalidConstruction
    }

    public var code: Code
    /// Byte index, into the buffer handed to the parser, of the element or octet at fault.
    public var offset: Int
    /// Schema path of the element being read, outermost first (e.g. `["signedData",
    /// "certificates[1]", "tbsCertificate"]`); empty where the caller named nothing.
    public var path: [String]
    /// What `reason` says, kept as values until it is read (see `Detail`).
    @usableFromInline var detail: Detail

    /// Why, in words. Built when read: most errors of a parse that fails (a fuzz run,
    /// a validator probing a malformed receipt) are never shown, and interpolating
    /// the text costs a string allocation per error.
    public var reason: String {
        get { detail.text(code) }
        set { detail = .text(newValue) }
    }

    public init(_ code: Code, at offset: Int, _ reason: String, path: [String] = []) {
        self.init(code, at: offset, detail: .text(reason), path: path)
    }

    @usableFromInline
    init(_ code: Code, at offset: Int, detail: Detail, path: [String] = []) {
        self.code = code
        self.offset = offset
        self.detail = detail
        self.path = path
    }

    /// The path joined with dots, or an empty string.
    public var pathDescription: String {
        var text = ""
        for component in path {
            if !text.isEmpty && !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }

    public var description: String {
        let place = path.isEmpty ? "" : " in \(pathDescription)"
        return "\(code.rawValue) at byte \(offset)\(place): \(reason)"
    }

    public static func == (lhs: BERError, rhs: BERError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Runs `body`, prefixing `component` to the path of any `BERError` it throws. Costs
/// nothing when nothing is thrown: the path is built while the error unwinds.
@inlinable
public func withBERPath<T>(
    _ component: @autoclosure () -> String,
    _ body: () throws(BERError) -> T
) throws(BERError) -> T {
    do {
        return try body()
    } catch {
        var error = error
        error.path.insert(component(), at: 0)
        throw error
    }
}

// MARK: Cold constructors
//
// The reader's hot paths throw through these so that building the message (string
// interpolation) stays out of the inlined code.
extension BERError {
    @usableFromInline @inline(never)
    static func shortRead(_ code: Code, at offset: Int, needed: Int, available: Int) -> BERError {
        BERError(code, at: offset, detail: .shortRead(needed: needed, available: available))
    }

    @usableFromInline @inline(never)
    static func invalidLength(_ code: Code, at offset: Int, tag: BERTag, octets: Int, value: UInt64) -> BERError {
        BERError(code, at: offset, detail: .length(tag, octets: octets, value: value))
    }

    @usableFromInline @inline(never)
    static func invalidTag(_ code: Code, at offset: Int, value: UInt64?) -> BERError {
        BERError(code, at: offset, detail: .tagNumber(value))
    }

    @usableFromInline @inline(never)
    static func tooDeep(at offset: Int, limit: Int) -> BERError {
        BERError(.depthLimitExceeded, at: offset, detail: .depth(limit: limit))
    }

    @usableFromInline @inline(never)
    static func misplacedEndOfContents(_ header: BERReader.Header, at offset: Int) -> BERError {
        if header.tag.isConstructed || header.length != 0 || header.headerLength != 2 {
            return invalidEndOfContents(at: offset)
        }
        return BERError(.unexpectedEndOfContents, at: offset, "end-of-contents outside an indefinite-length element")
    }

    @usableFromInline @inline(never)
    static func missingEndOfContents(at offset: Int) -> BERError {
        BERError(.missingEndOfContents, at: offset, "indefinite-length element has no end-of-contents marker")
    }

    /// X.690 8.1.5: an end-of-contents marker is exactly two zero octets.
    @usableFromInline @inline(never)
    static func invalidEndOfContents(at offset: Int) -> BERError {
        BERError(.invalidEndOfContents, at: offset, "end-of-contents must be exactly 00 00")
    }

    @usableFromInline @inline(never)
    static func contentsPastEnd(_ tag: BERTag, at offset: Int, length: Int, available: Int) -> BERError {
        BERError(.lengthExceedsInput, at: offset, detail: .contentsPastEnd(tag, length: length, available: available))
    }
}

extension BERError {
    @usableFromInline @inline(never)
    static func unexpectedTag(at offset: Int, expected: BERTag, found: BERTag?) -> BERError {
        BERError(.unexpectedTag, at: offset, detail: .unexpectedTag(expected: expected, found: found))
    }

    @usableFromInline @inline(never)
    static func trailingData(at offset: Int, count: Int) -> BERError {
        BERError(.trailingData, at: offset, detail: .trailingData(count: count))
    }

    @usableFromInline @inline(never)
    static func constructedString(_ tag: BERTag, at offset: Int) -> BERError {
        BERError(.constructedStringNotAllowed, at: offset, detail: .constructedString(tag))
    }

    @usableFromInline @inline(never)
    static func notConstructed(_ tag: BERTag, at offset: Int) -> BERError {
        BERError(.invalidConstruction, at: offset, detail: .notConstructed(tag))
    }

    @usableFromInline @inline(never)
    static func integerTooLarge(at offset: Int, octets: Int) -> BERError {
        BERError(.integerOverflow, at: offset, detail: .integerTooLarge(octets: octets))
    }
}

extension BERError {
    /// The values an error's `reason` is rendered from, one case per message of the
    /// reader's own errors; `text` for everything else.
    @usableFromInline
    enum Detail: Sendable {
        case text(String)
        case shortRead(needed: Int, available: Int)
        /// `invalidLength` errors: which message depends on the code.
        case length(BERTag, octets: Int, value: UInt64)
        /// `tagNumberTooLarge` and `nonMinimalTag`: the number when it was read.
        case tagNumber(UInt64?)
        case depth(limit: Int)
        case contentsPastEnd(BERTag, length: Int, available: Int)
        case unexpectedTag(expected: BERTag, found: BERTag?)
        case trailingData(count: Int)
        case constructedString(BERTag)
        case notConstructed(BERTag)
        case integerTooLarge(octets: Int)

        func text(_ code: Code) -> String {
            switch self {
            case .text(let text):
                return text
            case .shortRead(let needed, let available):
                return "needs \(needed) bytes, \(available) left"
            case .length(let tag, let octets, let value):
                switch code {
                case .indefiniteLengthOnPrimitive: return "\(tag) is primitive and cannot have an indefinite length"
                case .indefiniteLengthNotAllowed: return "DER requires definite lengths"
                case .lengthTooLong:
                    return octets == 0x7F ? "length octet 0xFF is reserved"
                                          : "\(octets) length octets (at most \(BERRules.maximumLengthOctets))"
                case .lengthOverflow: return "length \(value) does not fit in Int"
                default: return "length \(value) of \(tag) encoded in \(octets) octets, more than needed"
                }
            case .tagNumber(let value):
                switch (code, value) {
                case (.tagNumberTooLarge, _): return "tag number exceeds 2^32-1"
                case (_, let value?): return "tag number \(value) must use the low-tag form"
                default: return "tag number has a leading zero digit"
                }
            case .depth(let limit):
                return "nesting deeper than \(limit)"
            case .contentsPastEnd(let tag, let length, let available):
                return "\(tag) declares \(length) contents bytes, \(available) available"
            case .unexpectedTag(let expected, let found?):
                return "expected \(expected), found \(found)"
            case .unexpectedTag(let expected, nil):
                return "expected \(expected), found the end of the contents"
            case .trailingData(let count):
                return "\(count) unexpected bytes after the last element"
            case .constructedString(let tag):
                return "DER forbids constructed \(tag)"
            case .notConstructed(let tag):
                return "\(tag) is primitive, a constructed element was expected"
            case .integerTooLarge(let octets):
                return "INTEGER of \(octets) octets does not fit in 64 bits"
            }
        }
    }
}

extension BERError {
    /// The same error with `offset` moved by `base`: for decoders that work on
    /// offsets into a buffer (`BERReader.walk`) and report storage indices.
    @inlinable
    func rebased(by base: Int) -> BERError {
        var error = self
        error.offset &+= base
        return error
    }
}
