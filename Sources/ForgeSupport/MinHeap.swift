/// An element a `MinHeap` orders: `precedes` is a strict total order (ties broken by
/// something unique, so two heaps given the same inserts give the same elements back in
/// the same order).
public protocol HeapOrdered {
    func precedes(_ other: Self) -> Bool
}

/// A binary min-heap: the earliest element is read in O(1) and taken out in O(log n),
/// without looking at the rest. The store's due dates and the notification outbox's due
/// attempts are both one.
public struct MinHeap<Element: HeapOrdered> {
    public private(set) var elements: [Element] = []

    public init() {}

    public var first: Element? { elements.first }

    public mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].precedes(elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes out the first element; the heap must not be empty.
    public mutating func removeFirst() -> Element {
        let first = elements[0]
        let last = elements.removeLast()
        guard !elements.isEmpty else { return first }
        elements[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { break }
            var smallest = left
            if left + 1 < elements.count, elements[left + 1].precedes(elements[left]) { smallest = left + 1 }
            guard elements[smallest].precedes(elements[parent]) else { break }
            elements.swapAt(smallest, parent)
            parent = smallest
        }
        return first
    }

    public mutating func removeAll() { elements.removeAll() }
}

extension MinHeap: Sendable where Element: Sendable {}
extension MinHeap: Equatable where Element: Equatable {}
extension MinHeap: Hashable where Element: Hashable {}
