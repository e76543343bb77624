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
/// action (`advance`, `advanceClock`) says so.
///
/// **The lock is held only briefly.** Every request of the server, its courier and its
/// ticker wait for it, on Swift's cooperative threads (two on a two-core machine), so:
/// - A `read` or `write` body must be short: a lookup or one action, never a walk over
///   the whole store (`snapshot()` gives a copy to walk outside the lock), and it must
///   not call back into the store (`store.write { _ in store.receipt(…) }`): the lock is
///   not recursive, so that deadlocks.
/// - The clock moves in parts of at most `partSize` due entries (renewals, expiries…),
///   releasing the lock between parts and letting the requests waiting for it go first
///   (`StoreTurns`: the lock itself is not fair): `advanceClock` for a
///   move an action asks for, and every access for the catch-up with a time rate. A
///   request that arrives during a long move sees the store as far as the move has got,
///   and a write then happens at that instant. Moves are made one after another; made in
///   parts or not, a move makes the same renewals in the same order with the same ids.
/// - Events older than the history window are dropped (`StoreRetention`), so a store at a
///   time rate does not grow without bound.
public final class LocalAppStore: Sendable {
    private let guarded: Locked<Guarded>
    /// Held for the whole of a move in parts (`advanceClock`), so that moves happen one
    /// after another; other accesses take only `guarded`, between the parts.
    private let moving = Locked(0)
    /// The most due entries one hold of the lock processes when the clock moves.
    public let partSize: Int
    /// Lets waiting accesses in between the parts of a move.
    private let turns = StoreTurns()
    /// The default state, kept (copy-on-write) so a reset does not rebuild it.
    private let initial: StoreState
    /// Where the store takes the passing of time from; nil: the clock moves only when an action says so.
    public let clock: (any StoreClockSource)?

    /// What the lock guards.
    private struct Guarded {
        var state: StoreState
        /// The source's reading last taken (what it moved since is in `owed`).
        var lastReading: StoreInstant
        /// Resets so far: events of different resets share sequence numbers.
        var resets = 0
        /// Events not yet taken by the consumer (`takeFedEvents(as:)`), in order; kept only
        /// while a consumer is attached.
        var fed: [FedEvent] = []
        /// The one owner of the events (`attachEventConsumer`). Weak: the consumer holds the
        /// store, and a store whose consumer is gone keeps no events for nobody.
        weak var consumer: (any StoreEventConsumer)?
        /// Events were fed since the consumer was last told (it is told once the lock is let go).
        var untold = false
        /// Store time the source moved that the clock has not caught up with yet (a
        /// catch-up longer than one part waits for the next part).
        var owed: Int64 = 0
        /// Where the move in parts in progress (`advanceClock`) goes; nil when none is.
        /// The clock catching up meanwhile moves this on instead of the clock itself.
        var moveTarget: StoreInstant?

        /// Adds what the clock source moved since the last reading to `owed`.
        mutating func read(_ clock: (any StoreClockSource)?) {
            guard let clock else { return }
            let reading = clock.currentInstant()
            guard reading > lastReading else { return }
            owed = owed.addingSaturating(reading - lastReading)
            lastReading = reading
            if let target = moveTarget {
                moveTarget = min(target.addingSaturating(owed), StoreState.signingCertificateNotAfter)
                owed = 0
            }
        }

        /// Reads the clock source and catches up with it by one part of at most `limit`
        /// due entries; true when the clock owes nothing any more (or a move in parts in
        /// progress has taken the debt over).
        mutating func catchUp(_ clock: (any StoreClockSource)?, limit: Int) -> Bool {
            read(clock)
            guard owed > 0 else { return true }
            let before = state.now
            var result = StoreActionResult()
            let done = step(toward: min(state.now.addingSaturating(owed), StoreState.signingCertificateNotAfter), limit: limit, into: &result)
            // The clock stops at the certificates' notAfter: what the source moves past it is dropped.
            owed = state.now == StoreState.signingCertificateNotAfter ? 0 : owed - (state.now - before)
            return done
        }

        /// One part of a move toward `target`: drops history out of the window, processes
        /// at most `limit` due entries and feeds the events.
        mutating func step(toward target: StoreInstant, limit: Int, into result: inout StoreActionResult) -> Bool {
            trim()
            let before = state.eventCount
            let done = state.advance(toward: target, processingAtMost: limit, into: &result)
            feed(from: before)
            return done
        }

        /// Drops events (and completed mass extensions) older than the history window;
        /// they were fed already, when a feed runs.
        mutating func trim() {
            let (cutoff, overflow) = state.now.subtractingReportingOverflow(StoreRetention.notificationHistory(in: state.configuration.environment))
            if !overflow { state.dropHistory(before: cutoff) }
        }

        /// Appends the events recorded after the first `before` to the feed.
        mutating func feed(from before: Int) {
            guard consumer != nil, state.eventCount > before else { return }
            for event in state.events(since: before) { fed.append(FedEvent(reset: resets, event: event)) }
            untold = true
        }

        /// The consumer to tell that events were fed, once the lock is let go; nil when none were.
        mutating func consumerToTell() -> (any StoreEventConsumer)? {
            guard untold else { return nil }
            untold = false
            return consumer
        }
    }

    /// Due entries per part of a move: a few milliseconds of work (120,000 renewals took
    /// 1.6–2 s in `scripts/bench store-stall`), so a request waits for the lock no longer.
    public static let defaultPartSize = 256

    /// A store in its default state for `configuration` (its default population of customers and history).
    public init(_ configuration: StoreConfiguration = StoreConfiguration(), clock: (any StoreClockSource)? = nil,
                partSize: Int = LocalAppStore.defaultPartSize) {
        initial = StoreState(configuration)
        self.clock = clock
        self.partSize = max(1, partSize)
        guarded = Locked(Guarded(state: initial, lastReading: clock?.currentInstant() ?? 0))
    }

    /// A store starting from `state`; a reset returns to `state.configuration`'s default state.
    public init(state: StoreState, clock: (any StoreClockSource)? = nil, partSize: Int = LocalAppStore.defaultPartSize) {
        initial = StoreState(state.configuration)
        self.clock = clock
        self.partSize = max(1, partSize)
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
    /// the consumer takes it (`takeFedEvents(as:)`), and the consumer is told, once the lock
    /// is let go, after every write, every part of a move that recorded events and the end
    /// of every move, and every catch-up of the clock that recorded events (`StoreEventConsumer`). How a server sees each
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
    /// empty for anyone else (the events are the consumer's alone). The consumer is not
    /// told of what this call's own catch-up feeds: it takes those events now.
    public func takeFedEvents(as consumer: any StoreEventConsumer) -> [FedEvent] {
        catchUpInParts(telling: false)
        return turns.access { guarded.withLock { guarded in
            guard guarded.consumer === consumer else { return [] }
            _ = guarded.catchUp(clock, limit: partSize)
            guarded.untold = false
            defer { guarded.fed = [] }
            return guarded.fed
        } }
    }

    /// What the store was created with.
    public var configuration: StoreConfiguration { initial.configuration }

    /// Runs `body` on the state with the lock held (keep it short, and do not call the
    /// store from it: see the type's documentation). Each action validates before it
    /// changes anything, so one action that throws leaves the state as it was; a body
    /// that runs several actions keeps those done before the one that threw.
    public func write<Result, Failure: Error>(_ body: (inout StoreState) throws(Failure) -> Result) throws(Failure) -> Result {
        catchUpInParts()
        // Told after the lock is let go, whether `body` threw or not (a body running several
        // actions keeps those done before the one that threw, and their events).
        var consumer: (any StoreEventConsumer)?
        defer { consumer?.storeChanged(self) }
        return try turns.access { () throws(Failure) -> Result in
            try guarded.withLock { (guarded: inout Guarded) throws(Failure) -> Result in
                _ = guarded.catchUp(clock, limit: partSize)
                guarded.trim()
                let before = guarded.state.eventCount
                defer {
                    guarded.feed(from: before)
                    // Told after every write, events or not: a write may make retries due with
                    // none (advanceClock), and the consumer is what wakes their courier.
                    _ = guarded.consumerToTell()
                    consumer = guarded.consumer
                }
                return try body(&guarded.state)
            }
        }
    }

    /// Runs `body` on the state with the lock held, without copying it (keep it short:
    /// to encode or walk the whole state, take a `snapshot()`).
    public func read<Result, Failure: Error>(_ body: (StoreState) throws(Failure) -> Result) throws(Failure) -> Result {
        catchUpInParts()
        var consumer: (any StoreEventConsumer)?
        defer { consumer?.storeChanged(self) }
        return try turns.access { () throws(Failure) -> Result in
            try guarded.withLock { (guarded: inout Guarded) throws(Failure) -> Result in
                _ = guarded.catchUp(clock, limit: partSize)
                consumer = guarded.consumerToTell()
                return try body(guarded.state)
            }
        }
    }

    /// A copy of the whole state as it is now (copy-on-write: cheap until the next write
    /// changes an array, which that write then copies), to read at length outside the lock.
    public func snapshot() -> StoreState {
        read { $0 }
    }

    /// Moves the clock to the instant `target` answers for the state (which may refuse
    /// with an error), as `StoreState.advance(to:)` would, but in parts of `partSize` due
    /// entries with the lock released between them. Answers what the whole move did.
    /// A reset during the move ends it. Moves are made one after another.
    public func advanceClock(to target: (StoreState) throws(StoreError) -> StoreInstant) throws(StoreError) -> StoreActionResult {
        catchUpInParts()
        return try moving.withLock { (_: inout Int) throws(StoreError) -> StoreActionResult in
            let resets = try guarded.withLock { (guarded: inout Guarded) throws(StoreError) -> Int in
                guarded.read(clock)
                let instant = try target(guarded.state)
                // What the clock still owes the source is moved on top, as by a catch-up.
                guarded.moveTarget = min(instant.addingSaturating(guarded.owed), StoreState.signingCertificateNotAfter)
                guarded.owed = 0
                return guarded.resets
            }
            var result = StoreActionResult()
            while true {
                let (done, consumer) = guarded.withLock { guarded -> (Bool, (any StoreEventConsumer)?) in
                    guarded.read(clock)
                    guard guarded.resets == resets, let target = guarded.moveTarget else {
                        _ = guarded.consumerToTell()
                        return (true, guarded.consumer)
                    }
                    guard guarded.step(toward: target, limit: partSize, into: &result) else { return (false, guarded.consumerToTell()) }
                    guarded.moveTarget = nil
                    // The last part tells the consumer, events or not: the move may have made
                    // retries due with none, and the consumer is what wakes their courier.
                    _ = guarded.consumerToTell()
                    return (true, guarded.consumer)
                }
                // Each part's events are queued as the part ends, outside the lock.
                consumer?.storeChanged(self)
                if done { return result }
                turns.yield()
            }
        }
    }

    /// Catches the clock up with its source a part at a time, releasing the lock between
    /// parts, until it owes nothing (at once when it has no source); the consumer is told
    /// after each part that fed events (`telling`: not when the consumer itself asks).
    private func catchUpInParts(telling: Bool = true) {
        guard clock != nil else { return }
        while true {
            let (done, consumer) = guarded.withLock { guarded in (guarded.catchUp(clock, limit: partSize), guarded.consumerToTell()) }
            if telling { consumer?.storeChanged(self) }
            if done { return }
            turns.yield()
        }
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
            guarded.owed = 0
            guarded.moveTarget = nil
        }
    }
}

private extension Int64 {
    /// `self + other`, or `Int64.max` past it (`other` is never negative here).
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
