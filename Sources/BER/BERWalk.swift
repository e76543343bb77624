extension BERReader {
    /// One open constructed element during `walk`: what to restore when its contents
    /// end, and, for an indefinite length, what its extent needs once its
    /// end-of-contents is found (for a definite length, only the first two fields
    /// are written: the type is trivial, so its memory may be assigned field by field).
    @usableFromInline
    struct OpenElement {
        /// The enclosing level's limit.
        @usableFromInline var parentLimit: Int
        /// Whether this element has an indefinite length.
        @usableFromInline var isIndefinite: Bool
        /// Identifier offset and tag (used for indefinite lengths only).
        @usableFromInline var offset: Int
        @usableFromInline var tag: BERTag
        /// Contents start (used for indefinite lengths only).
        @usableFromInline var contentsStart: Int

        @inlinable @inline(__always)
        init(parentLimit: Int, isIndefinite: Bool, offset: Int, tag: BERTag, contentsStart: Int) {
            self.parentLimit = parentLimit
            self.isIndefinite = isIndefinite
            self.offset = offset
            self.tag = tag
            self.contentsStart = contentsStart
        }
    }

    /// Walks every remaining element, descending into every constructed one, and calls
    /// `visit` once per element with its extent (tag, offset, contents, end, depth);
    /// leaves the reader at its end.
    ///
    /// A definite-length element is visited when its header is read, before its
    /// children. An indefinite-length element is visited after its children, when
    /// its end-of-contents is reached: its extent is only known then, and finding it
    /// is the same pass as walking its contents, so indefinite-length input is read
    /// once, whatever the nesting (no scan ahead, nothing noted, nothing rescanned).
    ///
    /// The same checks as `readExtent` on every element, through the same header
    /// decoder and the one bounds-checked `read`: depth (`rules.maximumDepth`),
    /// lengths within the enclosing element, end-of-contents exactly `00 00` and only
    /// inside an indefinite-length element, none missing. Iterative: the open
    /// elements are kept in a small stack (at most `maximumDepth` entries, on the
    /// machine stack), so deep input costs no recursion and the walk no allocation.
    /// After it throws, the reader's position is unspecified.
    @inlinable
    public mutating func walk(_ visit: (BERExtent) throws(BERError) -> Void) throws(BERError) {
        let rules = self.rules
        let baseDepth = currentDepth
        let outerLimit = limit
        // Each open element took at least two header octets, so no more than this
        // many can be open at once.
        let capacity = Swift.max(0, Swift.min(rules.maximumDepth &- baseDepth, (outerLimit &- position) / 2)) &+ 1
        var cursor = position
        try storage.withUnsafeBufferPointer { (buffer) throws(BERError) in
            let bytes = Bytes(buffer, base: storage.startIndex)
            try withUnsafeTemporaryAllocation(of: OpenElement.self, capacity: capacity) {
                (open) throws(BERError) in
                try BERReader.walk(bytes, from: &cursor, limit: outerLimit, depth: baseDepth, rules: rules,
                                   open: open, visit)
            }
        }
        position = cursor
    }

    /// The full header decoder, out of line: `walk` inlines only its common case
    /// (low tag number, short-form length), so its loop keeps few values live.
    @usableFromInline @inline(never)
    static func fullHeader(in bytes: Bytes, at cursor: inout Int, limit: Int,
                           rules: BERRules) throws(BERError) -> Header {
        try header(in: bytes, at: &cursor, limit: limit, rules: rules)
    }

    /// `walk`'s loop, on locals kept in registers: `position` and `limit` are the
    /// current level's position and end (an indefinite-length level keeps its
    /// parent's end, so a missing end-of-contents is found at that end), `openCount`
    /// the number of open constructed elements. Whether the current level has an
    /// indefinite length is read from the innermost open element, and only when the
    /// level ends or an end-of-contents arrives, so the common path does not carry it.
    @inlinable @inline(__always)
    static func walk(_ bytes: Bytes, from cursor: inout Int, limit outerLimit: Int, depth baseDepth: Int,
                     rules: BERRules, open: UnsafeMutableBufferPointer<OpenElement>,
                     _ visit: (BERExtent) throws(BERError) -> Void) throws(BERError) {
        let maximumDepth = rules.maximumDepth
        // An element may be opened while fewer than this many are open.
        let openBudget = maximumDepth &- baseDepth
        var position = cursor
        var limit = outerLimit
        var openCount = 0
        while true {
            while position != limit {
                let start = position
                // The common case, a low tag number, decoded from the first two
                // octets (and the length octets that follow, if long-form); a high
                // tag number and universal tag 0 (end-of-contents, 00, and the invalid
                // constructed 20) go through the full decoder, out of line.
                let pair = try read(2, at: &position, limit: limit, failing: .truncated)
                let identifier = bytes[pair.lowerBound]
                let lengthOctet = bytes[pair.lowerBound &+ 1]
                let tag: BERTag
                let optionalLength: Int?
                if identifier & 0x1F != 0x1F && identifier & 0xDF != 0 {
                    tag = BERTag(BERTag.TagClass(topBits: identifier), UInt32(identifier & 0x1F),
                                 constructed: identifier & 0x20 != 0)
                    optionalLength = lengthOctet < 0x80
                        ? Int(lengthOctet)
                        : try readLength(in: bytes, first: lengthOctet, at: pair.lowerBound &+ 1, tag: tag,
                                         cursor: &position, limit: limit, rules: rules)
                } else {
                    position = start
                    let header = try fullHeader(in: bytes, at: &position, limit: limit, rules: rules)
                    if header.tag.number == 0 && header.tag.tagClass == .universal {
                        guard openCount > 0, open[openCount &- 1].isIndefinite else {
                            throw BERError.misplacedEndOfContents(header, at: start)
                        }
                        // X.690 8.1.5: exactly two zero octets (not 00 81 00, not 20 00).
                        if header.tag.isConstructed || header.length != 0 || header.headerLength != 2 {
                            throw BERError.invalidEndOfContents(at: start)
                        }
                        openCount &-= 1
                        try visit(BERExtent(tag: open[openCount].tag, offset: open[openCount].offset,
                                            contentsRange: Range(uncheckedBounds: (open[openCount].contentsStart, start)),
                                            end: position, depth: baseDepth &+ openCount &+ 1))
                        limit = open[openCount].parentLimit
                        continue
                    }
                    tag = header.tag
                    optionalLength = header.length
                }
                if openCount >= openBudget {
                    throw BERError.tooDeep(at: start, limit: maximumDepth)
                }
                guard let length = optionalLength else {
                    // Indefinite: its children follow, up to its end-of-contents.
                    open[openCount] = OpenElement(parentLimit: limit, isIndefinite: true,
                                                  offset: start, tag: tag, contentsStart: position)
                    openCount &+= 1
                    continue
                }
                guard length <= limit &- position else {
                    throw BERError.contentsPastEnd(tag, at: start, length: length, available: limit &- position)
                }
                let contents = try read(length, at: &position, limit: limit, failing: .lengthExceedsInput)
                try visit(BERExtent(tag: tag, offset: start, contentsRange: contents, end: position,
                                    depth: baseDepth &+ openCount &+ 1))
                if tag.isConstructed {
                    // Descend: the children are read up to the contents' end, then
                    // the walk resumes after the element (where `position` is now).
                    // Only what closing a definite-length element reads.
                    open[openCount].parentLimit = limit
                    open[openCount].isIndefinite = false
                    openCount &+= 1
                    position = contents.lowerBound
                    limit = contents.upperBound
                }
            }
            // The current level's end: the end of the input, or of a definite-length
            // element's contents; an indefinite-length element should have ended
            // before with its end-of-contents.
            if openCount == 0 { break }
            openCount &-= 1
            if open[openCount].isIndefinite {
                throw BERError.missingEndOfContents(at: open[openCount].offset)
            }
            limit = open[openCount].parentLimit
        }
        cursor = position
    }
}
