/// The logical tree of an encoding: tags and values, with where each node came from
/// kept beside it. Two encodings of the same value (indefinite versus definite
/// lengths, long versus short length forms) give equal trees; constructed strings
/// do too when parsed with `concatenatingStrings`.
///
/// A parsed tree lives in one table (`BERNodeList`): parsing allocates that table,
/// not an array per constructed node, and walks the input without recursion.
public struct BERNode: Hashable, Sendable {
    /// A node's contents: bytes for a primitive, children for a constructed element.
    public enum Value: Hashable, Sendable {
        /// The contents octets of a primitive element (a slice of the input).
        case primitive(ArraySlice<UInt8>)
        /// The elements inside a constructed element, in order.
        case constructed(BERNodeList)
    }

    /// Where a node was in its input. Not part of equality.
    public struct Source: Hashable, Sendable {
        /// Byte offset of the identifier in the input.
        public var offset: Int
        /// Identifier plus length octets.
        public var headerLength: Int
        /// Contents length; nil for an indefinite length.
        public var length: Int?
        /// 0 for a top-level element, 1 for its children, and so on.
        public var depth: Int
    }

    /// The node's tag.
    public var tag: BERTag
    /// The node's contents.
    public var value: Value
    /// Where the node was in its input; nil for a node built by hand.
    public var source: Source?

    /// A node built by hand, for writing or comparing trees.
    public init(tag: BERTag, value: Value, source: Source? = nil) {
        self.tag = tag
        self.value = value
        self.source = source
    }

    /// Equal when tag and value are equal; `source` is ignored, so two encodings of one value compare equal.
    public static func == (lhs: BERNode, rhs: BERNode) -> Bool {
        lhs.tag == rhs.tag && lhs.value == rhs.value
    }

    /// Hashes tag and value, as equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tag)
        hasher.combine(value)
    }

    /// The children of a constructed node; empty for a primitive one.
    public var children: BERNodeList {
        if case .constructed(let children) = value { return children }
        return []
    }

    // MARK: Parsing

    /// Parses exactly one element filling `bytes`. Recursion is bounded by
    /// `rules.maximumDepth`. With `concatenatingStrings`, a constructed string
    /// becomes one primitive node holding its concatenated segments.
    public static func parse(_ bytes: [UInt8], rules: BERRules, concatenatingStrings: Bool = false) throws(BERError) -> BERNode {
        var reader = BERReader(bytes, rules: rules)
        let node = try parse(&reader, concatenatingStrings: concatenatingStrings)
        try reader.finish()
        return node
    }

    /// Parses every element of `bytes`, one after another.
    public static func parseAll(_ bytes: [UInt8], rules: BERRules, concatenatingStrings: Bool = false) throws(BERError) -> [BERNode] {
        var reader = BERReader(bytes, rules: rules)
        var nodes: [BERNode] = []
        while !reader.isAtEnd {
            nodes.append(try parse(&reader, concatenatingStrings: concatenatingStrings))
        }
        return nodes
    }

    /// Parses the next element of `reader` into a tree.
    public static func parse(_ reader: inout BERReader, concatenatingStrings: Bool = false) throws(BERError) -> BERNode {
        let root = try reader.readExtent()
        var parser = BERTreeParser(reader: reader, concatenatingStrings: concatenatingStrings)
        return try parser.parse(root)
    }

    /// The tree under an element already read. Elements are checked in document
    /// order, each before its children, and the first error is thrown, as a
    /// recursive descent would find it (see `BERTreeParser`).
    public init(_ element: BERElement, concatenatingStrings: Bool = false) throws(BERError) {
        let reader = BERReader(storage: element.storage, range: element.extent.encodedRange, rules: element.rules,
                               depth: element.depth &- 1)
        var parser = BERTreeParser(reader: reader, concatenatingStrings: concatenatingStrings)
        self = try parser.parse(element.extent)
    }

    // MARK: Encoding

    /// The encoding of this tree with `writer`'s length forms (DER by default).
    public func encode(into writer: inout BERWriter) {
        switch value {
        case .primitive(let contents):
            writer.appendPrimitive(tag, contents: contents)
        case .constructed(let children):
            writer.appendConstructed(tag) { inner in
                for child in children { child.encode(into: &inner) }
            }
        }
    }

    /// The DER encoding of this tree (SET elements kept in tree order).
    public var derEncoded: [UInt8] {
        var writer = BERWriter()
        // A parsed tree's encoding is about as long as the element it was read from.
        if let source, let length = source.length { writer.reserveCapacity(source.headerLength + length) }
        encode(into: &writer)
        return writer.bytes
    }
}

extension BERElement {
    /// The checks a rule set makes on the contents of primitive universal types
    /// when an element is read generically (the tree parser): INTEGER, BOOLEAN,
    /// NULL and OBJECT IDENTIFIER. Typed readers make the same checks.
    public func checkPrimitiveContents() throws(BERError) {
        guard tag.tagClass == .universal, !tag.isConstructed else { return }
        switch tag.number {
        case 1:
            guard contents.count == 1 else {
                try BERError.fail(.invalidBoolean, at: offset, "BOOLEAN must have one contents octet")
            }
            if !rules.allowsNonCanonicalBoolean && contents.first != 0 && contents.first != 0xFF {
                try BERError.fail(.invalidBoolean, at: offset, "DER BOOLEAN must be 00 or FF")
            }
        case 2, 10:
            _ = try integerContents()
        case 5:
            guard contents.isEmpty else { try BERError.fail(.invalidNull, at: offset, "NULL must be empty") }
        case 6:
            _ = try OID(contents: contents, offset: offset)
        default:
            break
        }
    }
}
