extension StoreState {
    /// The number of events recorded since the store was created or reset, dropped ones
    /// included: the next event's sequence number is `eventCount + 1`.
    public var eventCount: Int { droppedEventCount + events.count }

    /// The events recorded after the first `count` (an `eventCount` read earlier), those
    /// dropped since excluded: how a caller takes the events of the actions it made.
    public func events(since count: Int) -> ArraySlice<StoreEvent> {
        events[min(events.count, max(0, count - droppedEventCount))...]
    }

    /// Drops the events dated before `cutoff`, and the completed mass extensions that
    /// completed before it: what history no longer answers about
    /// (`StoreRetention.notificationHistory`). Events are in date order, so the dropped
    /// ones are a prefix; it is dropped only once it is at least a quarter of the events
    /// (and 256 or more), so that each event is moved a bounded number of times and the
    /// events kept are at most a third more than the window holds.
    public mutating func dropHistory(before cutoff: StoreInstant) {
        var low = 0
        var high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].date < cutoff { low = middle + 1 } else { high = middle }
        }
        if low >= 256, low * 4 >= events.count {
            events.removeFirst(low)
            droppedEventCount += low
        }
        if massExtensions.contains(where: { $0.complete && $0.completeDate < cutoff }) {
            massExtensions.removeAll { $0.complete && $0.completeDate < cutoff }
        }
    }
}
