/// A decoding failure: what went wrong (`code`), where (`offset`, a byte index into
/// the buffer that was parsed, and `path`, the schema fields being read), and a
/// human-readable `reason`.
///
/// Errors compare equal by `code` only, so tests can match `.truncated` without
/// depending on offsets or wording; assert `offset` separately where it matters.
public struct BERError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable code: errors compare by it, and its raw value is what reports print.
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

    // Stored in this order so that the error packs into 32 bytes (`detail` 23, `code`
    // 1, `offset` 8): a typed throw returns an error of that size in registers. A
    // larger one goes through a stack slot at every call that can throw, and under
    // AddressSanitizer each slot is a poisoned variable in a fake stack frame
    // (docs/fuzzing.md, throughput). `BERErrorLayoutTests` keeps the size.
    /// What `reason` says, kept as values until it is read, and the path (see `Detail`).
    @usableFromInline var detail: Detail
    /// What went wrong: errors compare equal by this alone.
    public var code: Code
    /// Byte index, into the buffer handed to the parser, of the element or octet at fault.
    public var offset: Int

    /// Schema path of the element being read, outermost first (e.g. `["signedData",
    /// "certificates[1]", "tbsCertificate"]`); empty where the caller named nothing.
    public var path: [String] {
        get {
            if case .boxed(let box) = detail { return box.path }
            return []
        }
        set { detail = Detail(detail.unboxed, path: newValue) }
    }

    /// Puts `component` in front of the path (what `withBERPath` does on the way out):
    /// the box is changed in place when this error alone holds it.
    @usableFromInline
    mutating func prependPath(_ component: String) {
        guard case .boxed(var box) = detail else {
            detail = Detail(detail, path: [component])
            return
        }
        detail = .text("")  // lets go of the enum's reference, so `box` may be the only one
        if isKnownUniquelyReferenced(&box) {
            box.path.insert(component, at: 0)
        } else {
            box = Box(detail: box.detail, path: [component] + box.path)
        }
        detail = .boxed(box)
    }

    /// Why, in words. Built when read: most errors of a parse that fails (a fuzz run,
    /// a validator probing a malformed receipt) are never shown, and interpolating
    /// the text costs a string allocation per error.
    public var reason: String {
        get { detail.unboxed.text(code) }
        set { detail = Detail(.text(newValue), path: path) }
    }

    /// An error with its code, the byte offset where it applies, a reason in words and the schema path being read.
    public init(_ code: Code, at offset: Int, _ reason: String, path: [String] = []) {
        self.init(code, at: offset, detail: Detail(.text(reason), path: path))
    }

    @usableFromInline
    init(_ code: Code, at offset: Int, detail: Detail) {
        self.detail = detail
        self.code = code
        self.offset = offset
    }

    /// The path joined with dots, or an empty string.
    public var pathDescription: String { Self.describe(path: path) }

    /// A schema path joined with dots, indices attached (`signerInfos[0].signature`):
    /// how every error of the project writes where it applies.
    public static func describe(path: [String]) -> String {
        var text = ""
        for component in path {
            if !text.isEmpty && !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }

    /// `code at byte offset in path: reason`, the form every report of the project prints.
    public var description: String {
        let place = path.isEmpty ? "" : " in \(pathDescription)"
        return "\(code.rawValue) at byte \(offset)\(place): \(reason)"
    }

    /// Equal when the codes are equal: offsets, paths and wording are not compared.
    public static func == (lhs: BERError, rhs: BERError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, as equality compares.
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
        error.prependPath(component())
        throw error
    }
}

// MARK: Cold throwers
//
// The reader throws through these, never with a `throw` of its own: a `throw`
// statement hands the error to the runtime's `swift_willThrowTyped` by address, so
// every throw site inlined into a hot function is a stack slot there (under
// AddressSanitizer, a poisoned slot in a fake frame on every call). A call to one of
// these returns its error in registers and is passed on by `try`, which needs no
// slot; the message's values are only stored, and rendered when `reason` is read.
extension BERError {
    @usableFromInline @inline(never)
    static func shortRead(_ code: Code, at offset: Int, needed: Int, available: Int) throws(BERError) -> Never {
        throw BERError(code, at: offset, detail: .facts(.shortRead, first: needed, second: available))
    }

    @usableFromInline @inline(never)
    static func invalidLength(_ code: Code, at offset: Int, tag: BERTag, octets: Int, value: UInt64) throws(BERError) -> Never {
        throw BERError(code, at: offset, detail: .facts(.length, tag: tag, first: octets, second: Int(bitPattern: UInt(value))))
    }

    @usableFromInline @inline(never)
    static func invalidTag(_ code: Code, at offset: Int, value: UInt64?) throws(BERError) -> Never {
        throw BERError(code, at: offset, detail: .facts(.tagNumber, first: Int(bitPattern: UInt(value ?? 0)), second: value == nil ? 0 : 1))
    }

    @usableFromInline @inline(never)
    static func tooDeep(at offset: Int, limit: Int) throws(BERError) -> Never {
        throw BERError(.depthLimitExceeded, at: offset, detail: .facts(.depth, first: limit))
    }

    @usableFromInline @inline(never)
    static func misplacedEndOfContents(_ header: BERReader.Header, at offset: Int) throws(BERError) -> Never {
        if header.tag.isConstructed || header.length != 0 || header.headerLength != 2 {
            try invalidEndOfContents(at: offset)
        }
        throw BERError(.unexpectedEndOfContents, at: offset, "end-of-contents outside an indefinite-length element")
    }

    @usableFromInline @inline(never)
    static func missingEndOfContents(at offset: Int) throws(BERError) -> Never {
        throw BERError(.missingEndOfContents, at: offset, "indefinite-length element has no end-of-contents marker")
    }

    /// X.690 8.1.5: an end-of-contents marker is exactly two zero octets.
    @usableFromInline @inline(never)
    static func invalidEndOfContents(at offset: Int) throws(BERError) -> Never {
        throw BERError(.invalidEndOfContents, at: offset, "end-of-contents must be exactly 00 00")
    }

    @usableFromInline @inline(never)
    static func contentsPastEnd(_ tag: BERTag, at offset: Int, length: Int, available: Int) throws(BERError) -> Never {
        throw BERError(.lengthExceedsInput, at: offset, detail: .facts(.contentsPastEnd, tag: tag, first: length, second: available))
    }
}

extension BERError {
    @usableFromInline @inline(never)
    static func unexpectedTag(at offset: Int, expected: BERTag, found: BERTag?) throws(BERError) -> Never {
        throw BERError(.unexpectedTag, at: offset, detail: .unexpectedTag(expected: expected, found: found))
    }

    @usableFromInline @inline(never)
    static func trailingData(at offset: Int, count: Int) throws(BERError) -> Never {
        throw BERError(.trailingData, at: offset, detail: .facts(.trailingData, first: count))
    }

    @usableFromInline @inline(never)
    static func constructedString(_ tag: BERTag, at offset: Int) throws(BERError) -> Never {
        throw BERError(.constructedStringNotAllowed, at: offset, detail: .facts(.constructedString, tag: tag))
    }

    @usableFromInline @inline(never)
    static func notConstructed(_ tag: BERTag, at offset: Int) throws(BERError) -> Never {
        throw BERError(.invalidConstruction, at: offset, detail: .facts(.notConstructed, tag: tag))
    }

    @usableFromInline @inline(never)
    static func integerTooLarge(at offset: Int, octets: Int) throws(BERError) -> Never {
        throw BERError(.integerOverflow, at: offset, detail: .facts(.integerTooLarge, first: octets))
    }
}

extension BERError {
    /// Throws an error whose reason is `reason` (see the cold throwers above).
    @usableFromInline @inline(never)
    static func fail(_ code: Code, at offset: Int, _ reason: String) throws(BERError) -> Never {
        throw BERError(code, at: offset, reason)
    }
}

extension BERError {
    /// Throws `error` with its offset moved by `base`: for decoders that work on
    /// offsets into a buffer (`BERReader.walk`) and report storage indices.
    @usableFromInline @inline(never)
    static func rethrow(_ error: BERError, rebasedBy base: Int) throws(BERError) -> Never {
        var error = error
        error.offset &+= base
        throw error
    }
}
