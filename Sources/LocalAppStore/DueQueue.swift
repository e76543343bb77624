/// The subscriptions' next due dates (renewal, grace period end, billing retry end) as a
/// binary min-heap ordered by date, then subscription index: the clock takes them out
/// in that order, so two stores given the same actions process the same events in the
/// same order. A subscription's entry is stale once its generation has moved on; stale
/// entries are skipped when they come out rather than searched for.
struct DueQueue: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var date: StoreInstant
        var subscription: Int32
        var generation: UInt32

        func precedes(_ other: Entry) -> Bool {
            date != other.date ? date < other.date : subscription < other.subscription
        }
    }

    private(set) var entries: [Entry] = []

    var first: Entry? { entries.first }

    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> Entry {
        let first = entries[0]
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            var smallest = left
            if left + 1 < entries.count, entries[left + 1].precedes(entries[left]) { smallest = left + 1 }
            guard entries[smallest].precedes(entries[parent]) else { break }
            entries.swapAt(smallest, parent)
            parent = smallest
        }
        return first
    }

    mutating func removeAll() { entries.removeAll() }
}
