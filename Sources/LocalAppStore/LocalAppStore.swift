import ForgeSupport
import Foundation
import ReceiptForge

/// The store a server shares between requests: a value-type `StoreState` behind a lock.
/// Every call is synchronous and short; the HTTP layer reads the payloads it needs
/// under the lock (`read`) and signs them after it returns. A mutation (`write`) sees
/// and leaves a whole state; a reader never sees half of one.
///
/// ```swift
/// let store = LocalAppStore(StoreConfiguration(environment: .sandbox))
/// let bought = try store.write { try $0.buyProduct(customer: "alice", productId: "com.example.receiptforge.pro") }
/// let payload = try store.read { try $0.transactionInfo(transactionId: bought.transactionIds[0]) }
/// ```
///
/// With a `clock` (a time rate), every access first moves the clock on by as much as the
/// source moved since the previous access, processing what fell due on the way, so a
/// reader sees the store at the scaled time. Without one the clock moves only when an
/// action (`advance`) says so.
public final class LocalAppStore: Sendable {
    private let guarded: Locked<Guarded>
    /// The default state, kept (copy-on-write) so a reset does not rebuild it.
    private let initial: StoreState
    /// Where the store takes the passing of time from; nil: the clock moves only when an action says so.
    public let clock: (any StoreClockSource)?

    /// What the lock guards.
    private struct Guarded {
        var state: StoreState
        /// The source's reading the store's clock last caught up with.
        var lastReading: StoreInstant
        /// Resets so far: events of different resets share sequence numbers.
        var resets = 0
        /// Events not yet taken by the consumer (`takeFedEvents(as:)`), in order; kept only
        /// while a consumer is attached.
        var fed: [FedEvent] = []
        /// The one owner of the events (`attachEventConsumer`). Weak: the consumer holds the
        /// store, and a store whose consumer is gone keeps no events for nobody.
        weak var consumer: (any StoreEventConsumer)?

        /// Moves the clock on by what `clock` moved since the last reading; answers whether
        /// that fed events (the consumer is then to be told).
        @discardableResult
        mutating func catchUp(_ clock: (any StoreClockSource)?) -> Bool {
            guard let clock else { return false }
            let reading = clock.currentInstant()
            guard reading > lastReading else { return false }
            let step = reading - lastReading
            lastReading = reading
            let (target, overflow) = state.now.addingReportingOverflow(step)
            let before = state.events.count
            // The events are in the state (and fed, when a consumer is attached); the result has no caller to go to.
            _ = try? state.advance(to: overflow ? .max : target)
            return feed(from: before)
        }

        /// Appends the events added since `state.events[before]` to the feed; answers whether there were any to feed.
        @discardableResult
        mutating func feed(from before: Int) -> Bool {
            guard consumer != nil, state.events.count > before else { return false }
            for event in state.events[before...] { fed.append(FedEvent(reset: resets, event: event)) }
            return true
        }
    }

    /// A store in its default state for `configuration` (its default population of customers and history).
    public init(_ configuration: StoreConfiguration = StoreConfiguration(), clock: (any StoreClockSource)? = nil) {
        initial = StoreState(configuration)
        self.clock = clock
        guarded = Locked(Guarded(state: initial, lastReading: clock?.currentInstant() ?? 0))
    }

    /// A store starting from `state`; a reset returns to `state.configuration`'s default state.
    public init(state: StoreState, clock: (any StoreClockSource)? = nil) {
        initial = StoreState(state.configuration)
        self.clock = clock
        guarded = Locked(Guarded(state: state, lastReading: clock?.currentInstant() ?? 0))
    }

    /// An event as the feed hands it over: which reset of the store it happened after
    /// (0 before the first), since sequence numbers start again at 1 after each.
    public struct FedEvent: Sendable, Hashable {
        public let reset: Int
        public let event: StoreEvent
    }

    /// Makes `consumer` the owner of the store's events: from now on every event the store
    /// records (by any write, and by the clock catching up at a time rate) is kept until
    /// the consumer takes it (`takeFedEvents(as:)`), and the consumer is told after each
    /// access that may have recorded some (`StoreEventConsumer`). How a server sees each
    /// event once, in order, whoever caused it, with no transport in between.
    ///
    /// Attaching the same consumer again does nothing; another one, while the first is
    /// alive, is refused (`.storeHasAnEventConsumer`): taking events is destructive, so a
    /// second consumer would silently take half of them.
    public func attachEventConsumer(_ consumer: any StoreEventConsumer) throws(EventFeedError) {
        let environment = configuration.environment
        try guarded.withLock { (guarded: inout Guarded) throws(EventFeedError) in
            if let attached = guarded.consumer {
                guard attached === consumer else { throw .storeHasAnEventConsumer(environment) }
                return
            }
            guarded.consumer = consumer
            guarded.fed = []
        }
    }

    /// The events recorded since the previous call, in order, for the attached consumer;
    /// empty for anyone else (the events are the consumer's alone).
    public func takeFedEvents(as consumer: any StoreEventConsumer) -> [FedEvent] {
        guarded.withLock { guarded in
            guard guarded.consumer === consumer else { return [] }
            guarded.catchUp(clock)
            defer { guarded.fed = [] }
            return guarded.fed
        }
    }

    /// What the store was created with.
    public var configuration: StoreConfiguration { initial.configuration }

    /// Runs `body` on the state with the lock held. Each action validates before it
    /// changes anything, so one action that throws leaves the state as it was; a body
    /// that runs several actions keeps those done before the one that threw.
    public func write<Result, Failure: Error>(_ body: (inout StoreState) throws(Failure) -> Result) throws(Failure) -> Result {
        // Told after the lock is let go, whether `body` threw or not (a body running several
        // actions keeps those done before the one that threw, and their events).
        var consumer: (any StoreEventConsumer)?
        defer { consumer?.storeChanged(self) }
        return try guarded.withLock { (guarded: inout Guarded) throws(Failure) -> Result in
            consumer = guarded.consumer
            guarded.catchUp(clock)
            let before = guarded.state.events.count
            defer { guarded.feed(from: before) }
            return try body(&guarded.state)
        }
    }

    /// Runs `body` on the state with the lock held, without copying it.
    public func read<Result, Failure: Error>(_ body: (StoreState) throws(Failure) -> Result) throws(Failure) -> Result {
        var consumer: (any StoreEventConsumer)?
        defer { consumer?.storeChanged(self) }
        return try guarded.withLock { (guarded: inout Guarded) throws(Failure) -> Result in
            if guarded.catchUp(clock) { consumer = guarded.consumer }
            return try body(guarded.state)
        }
    }

    /// A copy of the whole state as it is now (copy-on-write: cheap until the next write
    /// changes an array, which that write then copies).
    public func snapshot() -> StoreState {
        read { $0 }
    }

    /// The receipt the customer's device would hold now (`StoreState.receiptForge`), as
    /// the receipt forge's valid case (its `receipt` and `creationDate`), minted outside
    /// the lock: signing does not hold up other requests.
    public func receipt(customer customerId: String) throws(StoreError) -> MintedCase {
        let forge = try read { state throws(StoreError) in try state.receiptForge(customer: customerId) }
        do {
            return try forge.mint(.valid)
        } catch {
            throw StoreError(.invalidValue, field: "customer", "no receipt could be minted for '\(customerId)': \(error)")
        }
    }

    /// SKTestSession's `resetToDefaultState`: the clock goes back to the start too (and
    /// at a time rate runs on from there).
    public func resetToDefaultState() {
        guarded.withLock { guarded in
            guarded.state = initial
            guarded.resets += 1
        }
    }
}
