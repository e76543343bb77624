import ForgeSupport
import LocalAppStore

/// The attempts an outbox has scheduled and not handed out, as a min-heap by due date,
/// then queue position: `claimDue` takes what is due without looking at the rest, so
/// 100,000 notifications waiting for their retry cost a claim nothing. Each notification
/// has one entry at most (an attempt is scheduled only after the previous one is
/// recorded).
typealias DueAttempts = MinHeap<DueAttempt>

/// One notification's next attempt in `DueAttempts`: when, and its position in the outbox.
struct DueAttempt: Sendable, Hashable, HeapOrdered {
    let date: StoreInstant
    let position: Int

    func precedes(_ other: DueAttempt) -> Bool {
        date != other.date ? date < other.date : position < other.position
    }
}
