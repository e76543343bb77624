import ForgeCA
import ForgeSupport
import Foundation
import StoreKit2Forge

/// Signs Server API payloads as the JWS forge signs (ES256 with the StoreKit 2 CA's
/// leaf, `x5c` of leaf, intermediate and root) and remembers signatures by payload
/// bytes: a payload holds its `signedDate`, so the same bytes mean the same answer,
/// and a client polling Get Transaction Info costs one signature per transaction
/// version and store instant, not one per request. At most `capacity` entries are
/// kept; a new one beyond that evicts an arbitrary old one.
final class JWSSignatureCache: Sendable {
    private let entries = Locked(Entries())
    private let forge: JWSForge
    let capacity: Int

    init(authority: JWSAuthority, capacity: Int) {
        precondition(capacity > 0, "a cache holds at least one signature")
        forge = JWSForge(authority: authority)
        self.capacity = capacity
    }

    func sign(_ payload: [UInt8]) throws(ServerAPIError) -> String {
        if let cached = entries.withLock({ $0.signatures[payload] }) { return cached }
        let jws: String
        do {
            jws = try forge.signAsAppStore(payload)
        } catch {
            throw ServerAPIError(.generalInternal, "signing failed: \(error)")
        }
        entries.withLock { entries in
            if entries.signatures.count >= capacity, entries.signatures[payload] == nil {
                entries.signatures.remove(at: entries.signatures.startIndex)
            }
            entries.signatures[payload] = jws
            entries.made += 1
        }
        return jws
    }

    /// Signatures kept now (at most `capacity`).
    var count: Int { entries.withLock { $0.signatures.count } }

    /// Signatures made (not taken from the cache) so far.
    var signaturesMade: Int { entries.withLock { $0.made } }

    private struct Entries {
        var signatures: [[UInt8]: String] = [:]
        /// Signatures made (not taken from the cache).
        var made = 0
    }
}
