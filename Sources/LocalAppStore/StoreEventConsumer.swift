/// The one owner of a store's events (a server's notification channel): attached with
/// `LocalAppStore.attachEventConsumer(_:)`, told after each access that may have recorded
/// events, and the only one that can take them (`LocalAppStore.takeFedEvents(as:)`).
///
/// The store calls `storeChanged(_:)` after the access's lock is let go, on the thread
/// that made the access: after every write (which may have moved the clock, so retries
/// may be due though no event was recorded), after each part of a move in parts
/// (`advanceClock`) that recorded events and at the end of the move, and after a read whose
/// clock catch-up (at a time rate) recorded events. A consumer that takes the events and queues them under one
/// lock of its own queues them in the store's order, each once, whoever wrote them; and
/// by the time a write returns, its events have been taken (by its own call, or by a
/// call that held the consumer's lock before it).
///
/// `storeChanged` may reach the store again (to take the events, read or write), but the
/// store calls it with none of the locks those take held (during a move it holds only the
/// one that keeps moves one after another), so a consumer must not call it with its own lock held
/// around a store access (the store's access would call back into the consumer).
public protocol StoreEventConsumer: AnyObject, Sendable {
    func storeChanged(_ store: LocalAppStore)
}
