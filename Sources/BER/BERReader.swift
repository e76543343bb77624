/// A cursor over BER/DER bytes, in the style of Go's `cryptobyte.String` and
/// BoringSSL's `CBS`: every byte is consumed through one bounds-checked primitive,
/// `read(_:at:limit:failing:)`, shared by the reader's position and its look-ahead
/// cursors; identifiers, lengths, elements and typed values are built on it. The
/// reader never copies: every slice it hands out shares the caller's
/// storage and keeps its indices, so `slice.startIndex` is the byte offset in the
/// input.
///
/// The reader never recurses on its own. The caller's code, mirroring the ASN.1
/// module, decides how deep to go (`readConstructed`, which narrows this same
/// reader to the element's contents and back, so descending costs no reference
/// counting); the input-driven walks, finding the end of an indefinite-length
/// element and `walk` (every element, in one pass), are iterative and capped by
/// `BERRules.maximumDepth`.
///
/// After a reader throws, its position is unspecified: callers stop using it.
public struct BERReader: Sendable {
    /// The buffer; `position..<limit` is what this reader may still read.
    @usableFromInline let storage: ArraySlice<UInt8>
    @usableFromInline var position: Int
    @usableFromInline var limit: Int
    @usableFromInline var currentDepth: Int
    /// The rules every read checks; readers of inner contents inherit them.
    public let rules: BERRules
    /// Where nested indefinite-length elements end, learnt while scanning an enclosing
    /// one: pairs (identifier offset, contents end), in increasing offset order. When
    /// a walk then descends and reads one of them, its end is looked up instead of
    /// scanned again, so each level is not rescanned (see `readIndefiniteContents`).
    /// Valid for `storage` and `rules`, which never change; empty for definite input.
    @usableFromInline var knownIndefiniteEnds: [Int] = []

    /// Depth of the element whose contents this reader walks (0 at the top level).
    @inlinable public var depth: Int { currentDepth }

    /// A reader over `bytes` under `rules`; offsets in errors are indices into `bytes`. `depth` is where nesting starts, for readers of inner contents.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>, rules: BERRules, depth: Int = 0) {
        self.storage = bytes
        self.position = bytes.startIndex
        self.limit = bytes.endIndex
        self.rules = rules
        self.currentDepth = depth
    }

    /// A reader over a whole array under `rules`.
    @inlinable
    public init(_ bytes: [UInt8], rules: BERRules) {
        self.init(bytes[...], rules: rules)
    }

    @inlinable
    init(storage: ArraySlice<UInt8>, range: Range<Int>, rules: BERRules, depth: Int) {
        self.storage = storage
        self.position = range.lowerBound
        self.limit = range.upperBound
        self.rules = rules
        self.currentDepth = depth
    }

    /// The bytes not yet read.
    @inlinable public var bytes: ArraySlice<UInt8> { storage[position..<limit] }
    /// True when every byte has been read.
    @inlinable public var isAtEnd: Bool { position == limit }
    /// Byte offset of the next unread byte.
    @inlinable public var offset: Int { position }

    /// The input bytes at `range` (indices as in `BERExtent`), without copying.
    @inlinable
    public func bytes(in range: Range<Int>) -> ArraySlice<UInt8> { storage[range] }

    // MARK: The one bounds-checked primitive

    /// Consumes `count` bytes from `cursor` (an index into this reader's bytes), or
    /// throws `code` at the cursor if fewer remain before `limit`. Returns their
    /// indices; no slice is made, so the hot path does no reference counting
    /// (`bytes(in:)` makes the slice when a caller wants one). Every read goes
    /// through here: the mutating `read` for the reader's own position, a local
    /// cursor for look-ahead (`peekTag`) and for the iterative `walk`.
    @inlinable @inline(__always)
    static func read(_ count: Int, at cursor: inout Int, limit: Int,
                     failing code: BERError.Code) throws(BERError) -> Range<Int> {
        let available = limit &- cursor
        guard count >= 0, count <= available else {
            try BERError.shortRead(code, at: cursor, needed: count, available: available)
        }
        let start = cursor
        cursor = start &+ count
        // 0 <= count, so start <= cursor: the range needs no second check.
        return Range(uncheckedBounds: (start, cursor))
    }

    @inlinable @inline(__always)
    mutating func read(_ count: Int, failing code: BERError.Code) throws(BERError) -> Range<Int> {
        try BERReader.read(count, at: &position, limit: limit, failing: code)
    }

    // MARK: Identifier and length

    /// An identifier and length, decoded. `length == nil` means indefinite.
    public struct Header: Hashable, Sendable {
        /// The element's tag.
        public var tag: BERTag
        /// Contents length; nil for an indefinite length.
        public var length: Int?
        /// Byte offset of the identifier in the input.
        public var offset: Int
        /// Identifier plus length octets.
        public var headerLength: Int

        @inlinable
        init(tag: BERTag, length: Int?, offset: Int, headerLength: Int) {
            self.tag = tag
            self.length = length
            self.offset = offset
            self.headerLength = headerLength
        }
    }

    /// Reads an identifier and a length and applies every rule that concerns them.
    @inlinable @inline(__always)
    public mutating func readHeader() throws(BERError) -> Header {
        var cursor = position
        let header = try BERReader.header(in: StorageBytes(storage), at: &cursor, limit: limit, rules: rules)
        position = cursor
        return header
    }

    /// The input's bytes by storage index, for the decoders below. Only indices that
    /// `read(_:at:limit:failing:)` has just returned are looked up, so they are
    /// already checked against the reader's bounds; the unchecked access only skips
    /// checking twice.
    @usableFromInline
    protocol ByteSource {
        subscript(index: Int) -> UInt8 { get }
    }

    /// The reader's storage, looked at one byte at a time (what `readHeader` and
    /// `peekTag` use: no setup per header).
    @usableFromInline
    struct StorageBytes: ByteSource {
        @usableFromInline let storage: ArraySlice<UInt8>

        @inlinable @inline(__always)
        init(_ storage: ArraySlice<UInt8>) { self.storage = storage }

        @inlinable @inline(__always)
        subscript(index: Int) -> UInt8 {
            storage.withUnsafeBufferPointer { $0[index &- storage.startIndex] }
        }
    }

    /// The reader's buffer seen once through `withUnsafeBufferPointer` (what `walk`
    /// uses for a whole walk).
    @usableFromInline
    struct Bytes: ByteSource {
        @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
        @usableFromInline let base: Int

        @inlinable @inline(__always)
        init(_ buffer: UnsafeBufferPointer<UInt8>, base: Int) {
            self.buffer = buffer
            self.base = base
        }

        @inlinable @inline(__always)
        subscript(index: Int) -> UInt8 { buffer[index &- base] }
    }

    /// Decodes the identifier and length at `cursor` (not past `limit`), applying
    /// every rule that concerns them, and moves the cursor past them. The one header
    /// decoder: `readHeader` and `walk` both use it.
    @inlinable @inline(__always)
    static func header<Source: ByteSource>(in bytes: Source, at cursor: inout Int, limit: Int,
                       rules: BERRules) throws(BERError) -> Header {
        let start = cursor
        // Every header has at least two octets. Fast path for the common case, a low
        // tag number (one identifier octet), decoded from those two without going back.
        let pair = try read(2, at: &cursor, limit: limit, failing: .truncated)
        let firstOctet = bytes[pair.lowerBound]
        if firstOctet & 0x1F != 0x1F {
            let tag = BERTag(BERTag.TagClass(topBits: firstOctet), UInt32(firstOctet & 0x1F),
                             constructed: firstOctet & 0x20 != 0)
            let lengthOctet = bytes[pair.lowerBound &+ 1]
            if lengthOctet < 0x80 {
                return Header(tag: tag, length: Int(lengthOctet), offset: start, headerLength: 2)
            }
            let length = try readLength(in: bytes, first: lengthOctet, at: pair.lowerBound &+ 1, tag: tag,
                                        cursor: &cursor, limit: limit, rules: rules)
            return Header(tag: tag, length: length, offset: start, headerLength: cursor &- start)
        }
        cursor = start
        let tag = try BERReader.identifier(in: bytes, at: &cursor, limit: limit)
        let lengthOffset = cursor
        let first = bytes[try read(1, at: &cursor, limit: limit, failing: .truncated).lowerBound]
        let length = first < 0x80
            ? Int(first)
            : try readLength(in: bytes, first: first, at: lengthOffset, tag: tag,
                             cursor: &cursor, limit: limit, rules: rules)
        return Header(tag: tag, length: length, offset: start, headerLength: cursor &- start)
    }

    /// The rest of a length whose first octet `first` (at `lengthOffset`, already
    /// read) is 0x80 or more: nil for indefinite, else the long form's value.
    @inlinable @inline(__always)
    static func readLength<Source: ByteSource>(in bytes: Source, first: UInt8, at lengthOffset: Int, tag: BERTag,
                           cursor: inout Int, limit: Int, rules: BERRules) throws(BERError) -> Int? {
        if first == 0x80 {
            guard tag.isConstructed else {
                try BERError.invalidLength(.indefiniteLengthOnPrimitive, at: lengthOffset, tag: tag, octets: 0, value: 0)
            }
            guard rules.allowsIndefiniteLengths else {
                try BERError.invalidLength(.indefiniteLengthNotAllowed, at: lengthOffset, tag: tag, octets: 0, value: 0)
            }
            return nil
        }
        let count = Int(first & 0x7F)
        guard count <= BERRules.maximumLengthOctets else {
            try BERError.invalidLength(.lengthTooLong, at: lengthOffset, tag: tag, octets: count, value: 0)
        }
        let octets = try read(count, at: &cursor, limit: limit, failing: .truncated)
        var value: UInt64 = 0
        var index = octets.lowerBound
        while index != octets.upperBound {
            value = value << 8 | UInt64(bytes[index])
            index &+= 1
        }
        guard value <= UInt64(Int.max) else {
            try BERError.invalidLength(.lengthOverflow, at: lengthOffset, tag: tag, octets: count, value: value)
        }
        let exact = Int(truncatingIfNeeded: value)
        if !rules.allowsNonMinimalLengths && (bytes[octets.lowerBound] == 0 || exact < 0x80) {
            try BERError.invalidLength(.nonMinimalLength, at: lengthOffset, tag: tag, octets: count, value: value)
        }
        return exact
    }

    /// Decodes the identifier at `cursor` and moves the cursor past it.
    @inlinable @inline(__always)
    static func identifier<Source: ByteSource>(in bytes: Source, at cursor: inout Int, limit: Int) throws(BERError) -> BERTag {
        let start = cursor
        let first = bytes[try read(1, at: &cursor, limit: limit, failing: .truncated).lowerBound]
        let tagClass = BERTag.TagClass(topBits: first)
        let constructed = first & 0x20 != 0
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // High-tag-number form: base-128 digits, most significant first.
            var value: UInt64 = 0
            var digits = 0
            while true {
                let octet = bytes[try read(1, at: &cursor, limit: limit, failing: .truncated).lowerBound]
                if digits == 0 && octet == 0x80 {
                    try BERError.invalidTag(.nonMinimalTag, at: start, value: nil)
                }
                value = value << 7 | UInt64(octet & 0x7F)
                digits += 1
                guard value <= UInt64(UInt32.max), digits <= 5 else {
                    try BERError.invalidTag(.tagNumberTooLarge, at: start, value: nil)
                }
                if octet & 0x80 == 0 { break }
            }
            guard value >= 0x1F else {
                try BERError.invalidTag(.nonMinimalTag, at: start, value: value)
            }
            number = UInt32(value)
        }
        return BERTag(tagClass, number, constructed: constructed)
    }

    // MARK: Elements

    /// Reads the next element whatever its tag: header, contents and, for an
    /// indefinite length, everything up to and including the matching end-of-contents.
    /// Returns where it lies; no slice is made.
    @inlinable @inline(__always)
    public mutating func readExtent() throws(BERError) -> BERExtent {
        let start = position
        let elementDepth = depth &+ 1
        if elementDepth > rules.maximumDepth {
            try BERError.tooDeep(at: start, limit: rules.maximumDepth)
        }
        let header = try readHeader()
        if header.tag.tagClass == .universal && header.tag.number == 0 {
            try BERError.misplacedEndOfContents(header, at: start)
        }
        let contents: Range<Int>
        if let length = header.length {
            guard length <= limit &- position else {
                try BERError.contentsPastEnd(header.tag, at: start, length: length, available: limit &- position)
            }
            contents = try read(length, failing: .lengthExceedsInput)
        } else {
            contents = try readIndefiniteContents(elementStart: start, elementDepth: elementDepth)
        }
        return BERExtent(tag: header.tag, offset: start, contentsRange: contents, end: position, depth: elementDepth)
    }

    /// Reads the next element whatever its tag (see `readExtent`), with its bytes.
    @inlinable
    public mutating func readElement() throws(BERError) -> BERElement {
        BERElement(try readExtent(), storage: storage, rules: rules)
    }

    /// Scans forward to the end-of-contents that closes an indefinite-length element
    /// whose header was just read; returns the contents (without the marker) and
    /// leaves the reader after the marker. Iterative: nested indefinite elements only
    /// raise a counter, capped by `maximumDepth`.
    ///
    /// The scan also notes where each nested indefinite element ends
    /// (`knownIndefiniteEnds`); reading one of those later (a walk descending into
    /// the contents) looks its end up instead of scanning it again, so the bytes of
    /// indefinite-length input are scanned once, not once per nesting level. The
    /// looked-up end was checked by the scan that noted it; the reader still moves
    /// over it through the bounds-checked `read`.
    @usableFromInline
    mutating func readIndefiniteContents(elementStart: Int, elementDepth: Int) throws(BERError) -> Range<Int> {
        let contentsStart = position
        if let known = knownIndefiniteEnd(of: elementStart), known &+ 2 <= limit {
            _ = try read(known &+ 2 &- position, failing: .truncated)
            return contentsStart..<known
        }
        var open = 1
        var contentsEnd = contentsStart
        while open > 0 {
            if isAtEnd {
                try BERError.missingEndOfContents(at: elementStart)
            }
            let markerStart = position
            let header = try readHeader()
            if header.tag.tagClass == .universal && header.tag.number == 0 {
                // X.690 8.1.5: exactly two zero octets (not 00 81 00, not 20 00).
                if header.tag.isConstructed || header.length != 0 || header.headerLength != 2 {
                    try BERError.invalidEndOfContents(at: markerStart)
                }
                open -= 1
                contentsEnd = markerStart
                if open > 0 { noteIndefiniteEnd(markerStart) }
            } else if let length = header.length {
                guard length <= limit &- position else {
                    try BERError.contentsPastEnd(header.tag, at: markerStart, length: length, available: limit &- position)
                }
                _ = try read(length, failing: .lengthExceedsInput)
            } else {
                open += 1
                if elementDepth + open - 1 > rules.maximumDepth {
                    try BERError.tooDeep(at: markerStart, limit: rules.maximumDepth)
                }
                if knownIndefiniteEnd(of: markerStart) == nil {
                    // Room for a few at once: growing from empty reallocates at every doubling.
                    if knownIndefiniteEnds.isEmpty { knownIndefiniteEnds.reserveCapacity(16) }
                    knownIndefiniteEnds.append(markerStart)
                    knownIndefiniteEnds.append(-1)
                }
            }
        }
        return contentsStart..<contentsEnd
    }

    /// The contents end noted for the indefinite-length element at `offset`, if any.
    @usableFromInline
    func knownIndefiniteEnd(of offset: Int) -> Int? {
        if knownIndefiniteEnds.isEmpty { return nil }
        return knownIndefiniteEnds.withUnsafeBufferPointer { (pairs: UnsafeBufferPointer<Int>) -> Int? in
            var low = 0
            var high = pairs.count / 2
            while low < high {
                let middle = (low + high) / 2
                let found = pairs[2 * middle]
                if found == offset { return pairs[2 * middle + 1] >= 0 ? pairs[2 * middle + 1] : nil }
                if found < offset { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// Records `contentsEnd` for the innermost nested element still open in the
    /// current scan: the last pair without an end. (Pairs after it belong to its
    /// descendants, already closed; a pair is stepped over once per open ancestor, at
    /// most `maximumDepth` times, so the work stays linear in the input.)
    @usableFromInline
    mutating func noteIndefiniteEnd(_ contentsEnd: Int) {
        var index = knownIndefiniteEnds.count - 1
        while index > 0 {
            if knownIndefiniteEnds[index] < 0 {
                knownIndefiniteEnds[index] = contentsEnd
                return
            }
            index -= 2
        }
    }

    /// The tag of the next element, without consuming anything; nil at the end.
    @inlinable
    public func peekTag() throws(BERError) -> BERTag? {
        if isAtEnd { return nil }
        var cursor = position
        return try BERReader.identifier(in: StorageBytes(storage), at: &cursor, limit: limit)
    }

    /// Reads the next element and checks its tag.
    @inlinable
    public mutating func readExtent(_ tag: BERTag) throws(BERError) -> BERExtent {
        let start = position
        guard let next = try peekTag() else {
            try BERError.unexpectedTag(at: start, expected: tag, found: nil)
        }
        guard next == tag else {
            try BERError.unexpectedTag(at: start, expected: tag, found: next)
        }
        return try readExtent()
    }

    /// Reads the next element, with its bytes, and checks its tag.
    @inlinable
    public mutating func readElement(_ tag: BERTag) throws(BERError) -> BERElement {
        BERElement(try readExtent(tag), storage: storage, rules: rules)
    }

    /// Reads the next element if it has `tag`; otherwise consumes nothing.
    @inlinable
    public mutating func readOptionalElement(_ tag: BERTag) throws(BERError) -> BERElement? {
        guard try peekTag() == tag else { return nil }
        return try readElement()
    }

    /// Walks the contents of a constructed element already read with `body`, which
    /// must consume them all, then continues after the element. The reader is
    /// narrowed in place, so this costs no copy and no reference counting.
    @inlinable
    public mutating func withContents<T>(
        of extent: BERExtent,
        _ body: (inout BERReader) throws(BERError) -> T
    ) throws(BERError) -> T {
        guard extent.tag.isConstructed else {
            try BERError.notConstructed(extent.tag, at: extent.offset)
        }
        let savedLimit = limit
        let savedDepth = currentDepth
        position = extent.contentsRange.lowerBound
        limit = extent.contentsRange.upperBound
        currentDepth = extent.depth
        let value = try body(&self)
        try finish()
        position = extent.end
        limit = savedLimit
        currentDepth = savedDepth
        return value
    }

    /// Reads a constructed element with `tag` and hands its contents to `body`, which
    /// must consume them all.
    @inlinable
    public mutating func readConstructed<T>(
        _ tag: BERTag,
        _ body: (inout BERReader) throws(BERError) -> T
    ) throws(BERError) -> T {
        let extent = try readExtent(tag)
        return try withContents(of: extent, body)
    }

    /// Reads a SEQUENCE and hands its contents to `body`, which must consume them all.
    @inlinable
    public mutating func readSequence<T>(_ body: (inout BERReader) throws(BERError) -> T) throws(BERError) -> T {
        try readConstructed(.sequence, body)
    }

    /// Reads a SET (or SET OF) and hands its contents to `body`. With
    /// `rules.requireSortedSets`, the elements must be in DER order.
    @inlinable
    public mutating func readSet<T>(
        _ tag: BERTag = .set,
        _ body: (inout BERReader) throws(BERError) -> T
    ) throws(BERError) -> T {
        let extent = try readExtent(tag)
        if rules.requireSortedSets {
            try BERElement(extent, storage: storage, rules: rules).checkSetOrder()
        }
        return try withContents(of: extent, body)
    }

    /// Calls `body` with each remaining element until the end.
    @inlinable
    public mutating func forEachElement(_ body: (BERElement) throws(BERError) -> Void) throws(BERError) {
        while !isAtEnd {
            try body(try readElement())
        }
    }

    /// Throws `trailingData` unless every byte has been read.
    @inlinable
    public func finish() throws(BERError) {
        guard isAtEnd else {
            try BERError.trailingData(at: position, count: limit &- position)
        }
    }
}

/// Where an element lies in the input: its tag, the byte offset of its identifier,
/// its contents and its end, all as indices into the buffer that was parsed. Plain
/// integers, so walking with extents does no reference counting.
public struct BERExtent: Hashable, Sendable {
    /// The element's tag.
    public let tag: BERTag
    /// Byte offset of the identifier octet in the input.
    public let offset: Int
    /// Indices of the contents octets (without the end-of-contents marker).
    public let contentsRange: Range<Int>
    /// Index just past the element (past its end-of-contents marker, if any).
    public let end: Int
    /// 1 for a top-level element, 2 for its children, and so on.
    public let depth: Int

    @inlinable
    init(tag: BERTag, offset: Int, contentsRange: Range<Int>, end: Int, depth: Int) {
        self.tag = tag
        self.offset = offset
        self.contentsRange = contentsRange
        self.end = end
        self.depth = depth
    }

    /// True when the element was written with an indefinite length (an end-of-contents marker follows the contents).
    @inlinable public var isIndefiniteLength: Bool { end != contentsRange.upperBound }
    /// Identifier plus length octets.
    @inlinable public var headerLength: Int { contentsRange.lowerBound - offset }
    /// The whole encoding's indices.
    @inlinable public var encodedRange: Range<Int> { offset..<end }
}

/// One element as read: its tag and where it lies. `encodedBytes` and `contents`
/// are slices of the input (no copy).
public struct BERElement: Sendable {
    /// The element's tag.
    public let tag: BERTag
    @usableFromInline let storage: ArraySlice<UInt8>
    /// Byte offset of the identifier octet in the input.
    public let offset: Int
    /// Indices of the contents octets (without the end-of-contents marker).
    public let contentsRange: Range<Int>
    /// Index just past the element (past its end-of-contents marker, if any).
    public let end: Int
    /// 1 for a top-level element, 2 for its children, and so on.
    public let depth: Int
    /// The rules the element was read under; readers of its contents inherit them.
    public let rules: BERRules

    @inlinable
    init(_ extent: BERExtent, storage: ArraySlice<UInt8>, rules: BERRules) {
        self.tag = extent.tag
        self.storage = storage
        self.offset = extent.offset
        self.contentsRange = extent.contentsRange
        self.end = extent.end
        self.depth = extent.depth
        self.rules = rules
    }

    /// Where this element lies.
    @inlinable
    public var extent: BERExtent {
        BERExtent(tag: tag, offset: offset, contentsRange: contentsRange, end: end, depth: depth)
    }

    /// The whole encoding: identifier, length, contents and, for an indefinite
    /// length, the end-of-contents marker. What signatures are computed over.
    @inlinable public var encodedBytes: ArraySlice<UInt8> { storage[offset..<end] }
    /// The contents octets (without the end-of-contents marker).
    @inlinable public var contents: ArraySlice<UInt8> { storage[contentsRange] }
    /// True when the element was written with an indefinite length (an end-of-contents marker follows the contents).
    @inlinable public var isIndefiniteLength: Bool { end != contentsRange.upperBound }
    /// Identifier plus length octets.
    @inlinable public var headerLength: Int { contentsRange.lowerBound - offset }

    /// A reader over the contents as elements, whether the element is constructed or
    /// not: how OpenSSL's template decoder reads a SET OF or SEQUENCE OF, whose
    /// constructed bit it never checks (`asn1_template_noexp_d2i`).
    @inlinable
    public func elementsReader() -> BERReader {
        BERReader(storage: storage, range: contentsRange, rules: rules, depth: depth)
    }

    /// True if the element is a SEQUENCE (`set`: a SET) in either form, constructed as
    /// DER requires or primitive, as OpenSSL reads a SEQUENCE OF or SET OF.
    @inlinable
    public func isSequenceOrSetOf(set: Bool) -> Bool {
        tag.tagClass == .universal && tag.number == (set ? 17 : 16)
    }

    /// A reader over the children of a constructed element.
    @inlinable
    public func contentsReader() throws(BERError) -> BERReader {
        guard tag.isConstructed else {
            try BERError.notConstructed(tag, at: offset)
        }
        return BERReader(storage: storage, range: contentsRange, rules: rules, depth: depth)
    }

    /// Throws `setNotSorted` unless the children are in DER SET OF order.
    public func checkSetOrder() throws(BERError) {
        var reader = try contentsReader()
        var previous: ArraySlice<UInt8>?
        while !reader.isAtEnd {
            let child = try reader.readElement()
            if let previous, derSetOrder(child.encodedBytes, previous) {
                try BERError.fail(.setNotSorted, at: child.offset, "SET OF elements are not in ascending DER order")
            }
            previous = child.encodedBytes
        }
    }
}

/// X.690 11.6: SET OF elements are ordered as octet strings, the shorter one padded
/// with trailing zero octets. True if `a` sorts strictly before `b`.
@inlinable
public func derSetOrder<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    var i = a.makeIterator()
    var j = b.makeIterator()
    while true {
        let x = i.next()
        let y = j.next()
        if x == nil && y == nil { return false }
        let xv = x ?? 0
        let yv = y ?? 0
        if xv != yv { return xv < yv }
    }
}
