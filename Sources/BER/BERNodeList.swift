/// The children of a constructed `BERNode`, in order: a random-access collection
/// indexed from 0.
///
/// A parse (`BERNode.parse`) keeps every node of its tree in one table, each node's
/// children side by side, and a list is a range of that table: reading a tree costs
/// one table, not an array per constructed node. A node read from a list is built
/// from its table row when it is asked for (no allocation; it shares the table).
/// Lists built by hand (`[a, b]`, `BERNodeList(nodes)`) hold their nodes as given.
/// Equality and hashing look at the nodes only, whatever holds them.
public struct BERNodeList: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    @usableFromInline
    enum Storage: Sendable {
        case table(BERNodeTable, Range<Int>)
        case nodes([BERNode])
    }

    @usableFromInline let storage: Storage

    /// A list holding `nodes` as given.
    public init(_ nodes: [BERNode]) {
        storage = .nodes(nodes)
    }

    /// A list of the nodes written in the literal.
    public init(arrayLiteral nodes: BERNode...) {
        self.init(nodes)
    }

    @usableFromInline
    init(table: BERNodeTable, rows: Range<Int>) {
        storage = .table(table, rows)
    }

    /// Always 0: lists are indexed from zero whatever holds them.
    @inlinable public var startIndex: Int { 0 }

    /// The number of nodes.
    @inlinable public var endIndex: Int {
        switch storage {
        case .table(_, let rows): return rows.count
        case .nodes(let nodes): return nodes.count
        }
    }

    /// The node at `position` (0-based); built from the parse's table when the list comes from one.
    @inlinable
    public subscript(position: Int) -> BERNode {
        switch storage {
        case .table(let table, let rows):
            precondition(position >= 0 && position < rows.count, "BERNodeList index \(position) out of range 0..<\(rows.count)")
            return table.node(at: rows.lowerBound &+ position)
        case .nodes(let nodes):
            return nodes[position]
        }
    }

    /// Equal when the nodes are equal in order, whatever storage holds them.
    public static func == (lhs: BERNodeList, rhs: BERNodeList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the count and the nodes, as equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for node in self { hasher.combine(node) }
    }
}

/// Every node of one parse: a row per node, each constructed node's children in
/// consecutive rows (`BERNodeList` is a range of rows). Rows are plain values
/// (where the element lies and which rows are its children), so the parser copies
/// and the table frees them without reference counting; a node's contents are
/// sliced from the input when the node is asked for. Written once by the parser,
/// then only read.
@usableFromInline
final class BERNodeTable: Sendable {
    @usableFromInline
    struct Row: Sendable {
        @usableFromInline enum Value: Sendable {
            /// The element's contents octets.
            case primitive
            /// A constructed string read as one primitive value: `strings[index]`.
            case concatenated(Int)
            case constructed(Range<Int>)
        }

        @usableFromInline var extent: BERExtent
        @usableFromInline var value: Value
    }

    /// The buffer the rows' extents index.
    @usableFromInline let storage: ArraySlice<UInt8>
    @usableFromInline let rows: [Row]
    /// The values of constructed strings (`concatenatingStrings`).
    @usableFromInline let strings: [ArraySlice<UInt8>]

    init(storage: ArraySlice<UInt8>, rows: [Row], strings: [ArraySlice<UInt8>]) {
        self.storage = storage
        self.rows = rows
        self.strings = strings
    }

    @usableFromInline
    func node(at index: Int) -> BERNode {
        let row = rows[index]
        let extent = row.extent
        let source = BERNode.Source(offset: extent.offset, headerLength: extent.headerLength,
                                    length: extent.isIndefiniteLength ? nil : extent.contentsRange.count,
                                    depth: extent.depth)
        switch row.value {
        case .primitive:
            return BERNode(tag: extent.tag, value: .primitive(storage[extent.contentsRange]), source: source)
        case .concatenated(let string):
            return BERNode(tag: extent.tag.constructed(false), value: .primitive(strings[string]), source: source)
        case .constructed(let children):
            return BERNode(tag: extent.tag, value: .constructed(BERNodeList(table: self, rows: children)), source: source)
        }
    }
}
