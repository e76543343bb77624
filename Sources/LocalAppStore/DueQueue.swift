import ForgeSupport

/// The subscriptions' next due dates (renewal, grace period end, billing retry end) as a
/// min-heap ordered by date, then subscription index: the clock takes them out in that
/// order, so two stores given the same actions process the same events in the same
/// order. A subscription's entry is stale once its generation has moved on; stale
/// entries are skipped when they come out rather than searched for.
typealias DueQueue = MinHeap<DueEntry>

/// One subscription's next due date in the `DueQueue`.
struct DueEntry: Sendable, Hashable, HeapOrdered {
    var date: StoreInstant
    var subscription: Int32
    var generation: UInt32

    func precedes(_ other: DueEntry) -> Bool {
        date != other.date ? date < other.date : subscription < other.subscription
    }
}
