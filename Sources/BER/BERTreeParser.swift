/// Reads the tree under an element into one `BERNodeTable`, without recursion:
/// what `BERNode.parse` and `BERNode(_:)` run.
///
/// Each element is visited in document order, from an explicit stack: its checks
/// are made (DER's primitive strings, the contents of INTEGER, BOOLEAN, NULL and
/// OBJECT IDENTIFIER, SET order when required) and the extents of its children are
/// read into consecutive rows, which is what lets a `BERNodeList` be a range of
/// rows. A recursive descent reads a child's extent only after the subtree of the
/// sibling before it; here all of an element's children are read when it is
/// visited. So an error reading one of them is deferred: it is thrown after the
/// subtrees of the siblings before it, where the descent would have met it.
/// Reading an extent has no other effect, so the error thrown is the descent's.
struct BERTreeParser {
    let concatenatingStrings: Bool
    /// One reader for every element's children, moved from one to the next: what it
    /// learns about nested indefinite lengths (`knownIndefiniteEnds`) while reading
    /// one level is used on the levels below, so each byte is scanned once.
    private var reader: BERReader
    /// The reader's buffer and rules, which never change.
    private var storage: ArraySlice<UInt8> { reader.storage }
    private var rules: BERRules { reader.rules }
    private var rows: [BERNodeTable.Row] = []
    private var strings: [ArraySlice<UInt8>] = []
    /// The error of the last level whose children could not all be read. One is
    /// enough: once an error is deferred, the parse throws it or an error met before
    /// it, and an error deferred later, deeper, is thrown first; so an earlier one
    /// that a later one replaces would never be thrown.
    private var deferredError: BERError?

    /// A parser reading with (a copy of) `reader`, which read the root element.
    init(reader: BERReader, concatenatingStrings: Bool) {
        self.concatenatingStrings = concatenatingStrings
        self.reader = reader
    }

    /// The siblings still to visit at one depth: rows `next..<end`, then, if
    /// `deferred`, the error reading their parent's remaining children.
    private struct Level {
        var next: Int
        var end: Int
        var deferred: Bool
    }

    mutating func parse(_ root: BERExtent) throws(BERError) -> BERNode {
        let size = root.encodedRange.count
        // Most small inputs fit the first allocation (a node takes two bytes at least,
        // most take three or more); larger trees grow it.
        rows.reserveCapacity(min(size / 3 + 2, 24))
        rows.append(BERNodeTable.Row(extent: root, value: .primitive))
        // One level per depth below the root (each nested header takes two bytes at
        // least, and none is read past the depth limit), one for the root and one
        // for a deferred error past the limit: on the machine stack for small input,
        // as in `BERReader.walk`.
        let capacity = max(0, min(rules.maximumDepth &- root.depth, size / 2)) &+ 3
        try withUnsafeTemporaryAllocation(of: Level.self, capacity: capacity) { (levels) throws(BERError) in
            var top = 0
            levels[0] = Level(next: 0, end: 1, deferred: false)
            while true {
                if levels[top].next < levels[top].end {
                    let row = levels[top].next
                    levels[top].next &+= 1
                    if let children = try visit(row) {
                        top &+= 1
                        precondition(top < capacity, "BERTreeParser: deeper than its level stack")
                        levels[top] = children
                    }
                } else {
                    if levels[top].deferred, let error = deferredError { throw error }
                    if top == 0 { break }
                    top &-= 1
                }
            }
        }
        return BERNodeTable(storage: storage, rows: rows, strings: strings).node(at: 0)
    }

    /// Checks the element in `row`; for a constructed one, reads its children into
    /// new rows and returns them as the next level down.
    private mutating func visit(_ row: Int) throws(BERError) -> Level? {
        let extent = rows[row].extent
        let tag = extent.tag
        if tag.isConstructed && tag.isStringType {
            guard rules.allowsConstructedStrings else { try BERError.constructedString(tag, at: extent.offset) }
            if concatenatingStrings {
                let element = BERElement(extent, storage: storage, rules: rules)
                strings.append(try element.stringValue(segmentTag: tag.constructed(false)))
                rows[row].value = .concatenated(strings.count - 1)
                return nil
            }
        }
        guard tag.isConstructed else {
            try BERElement(extent, storage: storage, rules: rules).checkPrimitiveContents()
            return nil
        }
        if rules.requireSortedSets && tag == .set {
            try BERElement(extent, storage: storage, rules: rules).checkSetOrder()
        }
        reader.position = extent.contentsRange.lowerBound
        reader.limit = extent.contentsRange.upperBound
        reader.currentDepth = extent.depth
        let first = rows.count
        var deferred = false
        do throws(BERError) {
            while !reader.isAtEnd {
                rows.append(BERNodeTable.Row(extent: try reader.readExtent(), value: .primitive))
            }
        } catch {
            deferredError = error
            deferred = true
        }
        rows[row].value = .constructed(first..<rows.count)
        return Level(next: first, end: rows.count, deferred: deferred)
    }
}
