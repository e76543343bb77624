import LocalAppStore

/// The attempts an outbox has scheduled and not handed out, as a binary min-heap by due
/// date, then queue position: `claimDue` takes what is due without looking at the rest,
/// so 100,000 notifications waiting for their retry cost a claim nothing. Each
/// notification has one entry at most (an attempt is scheduled only after the previous
/// one is recorded).
struct DueAttempts: Sendable {
    struct Entry: Sendable, Hashable {
        let date: StoreInstant
        let position: Int

        func precedes(_ other: Entry) -> Bool {
            date != other.date ? date < other.date : position < other.position
        }
    }

    private var entries: [Entry] = []

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
}
