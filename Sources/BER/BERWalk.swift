extension BERReader {
    /// Walks every remaining element, descending into every constructed one, and calls
    /// `visit` once per element with its extent (tag, offset, contents, end, depth);
    /// leaves the reader at its end.
    ///
    /// A definite-length element is visited when its header is read, before its
    /// children. An indefinite-length element is visited after its children, when
    /// its end-of-contents is reached: its extent is only known then, and finding it
    /// is the same pass as walking its contents, so indefinite-length input is read
    /// once, whatever the nesting (no scan ahead, nothing rescanned; only the
    /// element's own identifier is decoded again when its end-of-contents comes).
    ///
    /// The same checks as `readExtent` on every element, through the same header
    /// decoder and the one bounds-checked `read`: depth (`rules.maximumDepth`),
    /// lengths within the enclosing element, end-of-contents exactly `00 00` and only
    /// inside an indefinite-length element, none missing. Iterative: the open
    /// elements are kept in a stack of one `Int` each (see `walkLevels`), at most
    /// `maximumDepth` of them, on the machine stack for the default limit, so deep
    /// input costs no recursion and the walk no allocation.
    /// After it throws, the reader's position is unspecified.
    @inlinable
    public mutating func walk(_ visit: (BERExtent) throws(BERError) -> Void) throws(BERError) {
        let rules = self.rules
        let baseDepth = currentDepth
        // The loop works on offsets into the buffer (0 at `storage.startIndex`), so a
        // byte is one load; extents and errors get `base` added back.
        let base = storage.startIndex
        let end = limit &- base
        var cursor = position &- base
        if cursor == end { return }
        // Each open element took at least two header octets, so no more than this
        // many can be open at once.
        let capacity = Swift.max(0, Swift.min(rules.maximumDepth &- baseDepth, (end &- cursor) / 2)) &+ 1
        try storage.withUnsafeBufferPointer { (buffer) throws(BERError) in
            try withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { (levels) throws(BERError) in
                try BERReader.walk(buffer.baseAddress.unsafelyUnwrapped, base: base, from: &cursor, limit: end,
                                   depth: baseDepth, rules: rules, levels: levels.baseAddress.unsafelyUnwrapped, visit)
            }
        }
        position = cursor &+ base
    }

    /// The full header decoder, out of line: `walk` inlines only its common case
    /// (low tag number, short-form length), so its loop keeps few values live.
    @usableFromInline @inline(never)
    static func fullHeader(in bytes: Bytes, at cursor: inout Int, limit: Int,
                           rules: BERRules) throws(BERError) -> Header {
        try header(in: bytes, at: &cursor, limit: limit, rules: rules)
    }

    /// `walk`'s loop, on locals kept in registers. `position` and `limit` are the
    /// current level's position and end, as offsets into `bytes`; `openCount` is the
    /// number of open constructed elements, and `levels[i]` says how the i-th one
    /// ends (`walkLevels`):
    ///
    /// - a definite-length element: its parent's limit (≥ 0), restored when its
    ///   contents end;
    /// - an indefinite-length element: `~offset` (< 0), its identifier's offset. Its
    ///   level keeps its parent's limit (so a missing end-of-contents is found at
    ///   that end); when its end-of-contents comes, its identifier is decoded again
    ///   from `offset` to build its extent.
    ///
    /// Errors are thrown with offsets into `bytes` and get `base` added on their way
    /// out (`rebased`); the visitor gets extents in storage indices, and its own
    /// errors pass unchanged.
    @inlinable @inline(__always)
    static func walk(_ bytes: UnsafePointer<UInt8>, base: Int, from cursor: inout Int, limit outerLimit: Int,
                     depth baseDepth: Int, rules: BERRules, levels: UnsafeMutablePointer<Int>,
                     _ visit: (BERExtent) throws(BERError) -> Void) throws(BERError) {
        let source = Bytes(UnsafeBufferPointer(start: bytes, count: outerLimit), base: 0)
        let maximumDepth = rules.maximumDepth
        // An element may be opened while fewer than this many are open.
        let openBudget = maximumDepth &- baseDepth
        var position = cursor
        var limit = outerLimit
        var openCount = 0
        while true {
            // The current level's end: the end of the input, or of a definite-length
            // element's contents; an indefinite-length element should have ended
            // before with its end-of-contents.
            if position == limit {
                if openCount == 0 { break }
                openCount &-= 1
                let ending = levels[openCount]
                if ending < 0 {
                    try BERError.missingEndOfContents(at: ~ending &+ base)
                }
                limit = ending
                continue
            }
            let start = position
            // What to visit: an element whose header was just read, or, at an
            // end-of-contents, the indefinite-length element it closes (`closing`).
            // Its identifier's first octet (`first`) gives the class and the
            // constructed bit whatever the tag number's form.
            let first: UInt8
            let number: UInt32
            let offset: Int
            let contents: Range<Int>
            let closing: Bool
            decoding: do throws(BERError) {
                // The common case, a low tag number, decoded from the first two octets
                // (and the length octets that follow, if long-form). End-of-contents
                // (00 00) is handled here too; any other universal tag 0 (00 with a
                // length, the invalid constructed 20) and high tag numbers go through
                // the full decoder, out of line.
                let pair = try read(2, at: &position, limit: limit, failing: .truncated)
                let identifier = source[pair.lowerBound]
                let lengthOctet = source[pair.lowerBound &+ 1]
                let low = identifier & 0x1F
                // The length, or -1 for an indefinite length (a plain `Int`, so the
                // loop carries no optional's flag and `read` sees it is not negative).
                let length: Int
                // Tag numbers 1...30, or 0 outside the universal class.
                if _fastPath(low &- 1 < 30 || (low == 0 && identifier >= 0x40)) {
                    first = identifier
                    number = UInt32(low)
                    length = lengthOctet < 0x80
                        ? Int(lengthOctet)
                        : try readLength(in: source, first: lengthOctet, at: pair.lowerBound &+ 1,
                                         tag: BERTag(BERTag.TagClass(topBits: first), number, constructed: first & 0x20 != 0),
                                         cursor: &position, limit: limit, rules: rules) ?? -1
                } else if identifier | lengthOctet == 0 {
                    // End-of-contents: closes the innermost open element, which must
                    // have an indefinite length.
                    guard openCount > 0, levels[openCount &- 1] < 0 else {
                        try BERError.misplacedEndOfContents(
                            Header(tag: .endOfContents, length: 0, offset: start, headerLength: 2), at: start)
                    }
                    openCount &-= 1
                    offset = ~levels[openCount]
                    // Its identifier, then the 0x80 length octet, then its contents.
                    var contentsStart = offset
                    number = try BERReader.identifier(in: source, at: &contentsStart, limit: start).number
                    first = source[offset]
                    contents = Range(uncheckedBounds: (contentsStart &+ 1, start))
                    closing = true
                    break decoding
                } else {
                    // (A cursor of its own: `position`'s address does not escape, so
                    // it stays in a register.)
                    var headerEnd = start
                    let header = try fullHeader(in: source, at: &headerEnd, limit: limit, rules: rules)
                    position = headerEnd
                    first = identifier
                    if header.tag.number == 0 && header.tag.tagClass == .universal {
                        // X.690 8.1.5: exactly two zero octets (not 00 81 00, not 20 00).
                        if openCount > 0 && levels[openCount &- 1] < 0 {
                            try BERError.invalidEndOfContents(at: start)
                        }
                        try BERError.misplacedEndOfContents(header, at: start)
                    }
                    number = header.tag.number
                    length = header.length ?? -1
                }
                if openCount >= openBudget {
                    try BERError.tooDeep(at: start, limit: maximumDepth)
                }
                if length < 0 {
                    // Indefinite: its children follow, up to its end-of-contents. Its
                    // level keeps the enclosing limit.
                    levels[openCount] = ~start
                    openCount &+= 1
                    continue
                }
                guard length <= limit &- position else {
                    try BERError.contentsPastEnd(
                        BERTag(BERTag.TagClass(topBits: first), number, constructed: first & 0x20 != 0),
                        at: start, length: length, available: limit &- position)
                }
                offset = start
                contents = try read(length, at: &position, limit: limit, failing: .lengthExceedsInput)
                closing = false
            } catch {
                try BERError.rethrow(error, rebasedBy: base)
            }
            let constructed = first & 0x20 != 0
            try visit(BERExtent(tag: BERTag(BERTag.TagClass(topBits: first), number, constructed: constructed),
                                offset: offset &+ base,
                                contentsRange: Range(uncheckedBounds: (contents.lowerBound &+ base, contents.upperBound &+ base)),
                                end: position &+ base, depth: baseDepth &+ openCount &+ 1))
            if constructed && !closing {
                // Descend: the children are read up to the contents' end, then the
                // walk resumes after the element (where `position` is now).
                levels[openCount] = limit
                openCount &+= 1
                position = contents.lowerBound
                limit = contents.upperBound
            }
        }
        cursor = position
    }
}
