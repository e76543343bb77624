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
    let storage: ArraySlice<UInt8>
    let rules: BERRules
    let concatenatingStrings: Bool
    private var rows: [BERNodeTable.Row] = []
    private var strings: [ArraySlice<UInt8>] = []
    /// Rows to visit, the next one last; `deferred` marks where a deferred error is due.
    private var stack: [Int] = []
    private var deferredErrors: [BERError] = []
    private static let deferred = -1

    init(storage: ArraySlice<UInt8>, rules: BERRules, concatenatingStrings: Bool) {
        self.storage = storage
        self.rules = rules
        self.concatenatingStrings = concatenatingStrings
    }

    mutating func parse(_ root: BERExtent) throws(BERError) -> BERNode {
        // A node takes two bytes at least: most small inputs fit the first allocation.
        rows.reserveCapacity(min(root.encodedRange.count / 2 + 1, 32))
        stack.reserveCapacity(16)
        rows.append(BERNodeTable.Row(extent: root, value: .primitive))
        stack.append(0)
        while let row = stack.popLast() {
            if row == Self.deferred { throw deferredErrors.removeLast() }
            try visit(row)
        }
        return BERNodeTable(storage: storage, rows: rows, strings: strings).node(at: 0)
    }

    private mutating func visit(_ row: Int) throws(BERError) {
        let extent = rows[row].extent
        let tag = extent.tag
        if tag.isConstructed && tag.isStringType {
            guard rules.allowsConstructedStrings else { throw BERError.constructedString(tag, at: extent.offset) }
            if concatenatingStrings {
                let element = BERElement(extent, storage: storage, rules: rules)
                strings.append(try element.stringValue(segmentTag: tag.constructed(false)))
                rows[row].value = .concatenated(strings.count - 1)
                return
            }
        }
        guard tag.isConstructed else {
            try BERElement(extent, storage: storage, rules: rules).checkPrimitiveContents()
            return
        }
        if rules.requireSortedSets && tag == .set {
            try BERElement(extent, storage: storage, rules: rules).checkSetOrder()
        }
        var reader = BERReader(storage: storage, range: extent.contentsRange, rules: rules, depth: extent.depth)
        let first = rows.count
        do throws(BERError) {
            while !reader.isAtEnd {
                rows.append(BERNodeTable.Row(extent: try reader.readExtent(), value: .primitive))
            }
        } catch {
            deferredErrors.append(error)
            stack.append(Self.deferred)
        }
        rows[row].value = .constructed(first..<rows.count)
        var child = rows.count
        while child > first {
            child &-= 1
            stack.append(child)
        }
    }
}
