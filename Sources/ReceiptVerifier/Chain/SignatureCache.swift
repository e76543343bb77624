import Foundation

/// Remembers which (issuer, certificate) signatures have verified, keyed by the
/// SHA-256 fingerprints of both certificates' raw bytes, so that a batch of
/// receipts signed under one chain pays for its RSA operations once.
///
/// Only the signature check is skipped on a hit: validity and constraints depend on
/// the verification time and are checked every time. The caller owns the cache and
/// decides how long it lives; one cache may be shared between threads.
public final class SignatureCache: @unchecked Sendable {
    // @unchecked: every stored property is either immutable or guarded by `lock`.
    // (Synchronization.Mutex would say so to the compiler but needs macOS 15.)

    public struct Statistics: Hashable, Sendable {
        /// Lookups that found a verified pair.
        public var hits = 0
        /// Lookups that did not (each followed by an RSA verification).
        public var misses = 0
        /// Pairs stored now.
        public var entries = 0
    }

    private struct Key: Hashable {
        let issuer: [UInt8]
        let certificate: [UInt8]
    }

    /// The most pairs kept; when full, the cache starts over (a receipt batch needs two).
    public let capacity: Int
    private let lock = NSLock()
    private var verified: Set<Key> = []
    private var counters = Statistics()

    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "a cache needs room for at least one pair")
        self.capacity = capacity
    }

    public var statistics: Statistics {
        lock.withLock {
            var snapshot = counters
            snapshot.entries = verified.count
            return snapshot
        }
    }

    public func removeAll() {
        lock.withLock {
            verified.removeAll()
            counters = Statistics()
        }
    }

    /// True (a hit) if `certificate`'s signature by `issuer` has verified before.
    func containsVerifiedPair(issuer: Certificate, certificate: Certificate) -> Bool {
        let key = Key(issuer: issuer.fingerprint, certificate: certificate.fingerprint)
        return lock.withLock {
            let found = verified.contains(key)
            if found { counters.hits += 1 } else { counters.misses += 1 }
            return found
        }
    }

    func insertVerifiedPair(issuer: Certificate, certificate: Certificate) {
        let key = Key(issuer: issuer.fingerprint, certificate: certificate.fingerprint)
        lock.withLock {
            if verified.count >= capacity { verified.removeAll(keepingCapacity: true) }
            verified.insert(key)
        }
    }
}
