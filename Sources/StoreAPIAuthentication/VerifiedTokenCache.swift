import ForgeSupport
import Foundation

/// Tokens that passed every check, by their exact text: a client sends one token on
/// every request until it expires (Apple's clients make one per few minutes), and the
/// ES256 verification and two JSON parses are most of a cheap request's cost. Only
/// the checks that do not depend on the clock are skipped on a hit; `exp` and `iat`
/// are checked again against each request's clock (`BearerTokenVerifier.checkTimes`).
/// A token differing in any byte is another key, verified in full.
///
/// At most `capacity` entries: a new one beyond that first drops those expired at the
/// clock of the request adding it, then an arbitrary one.
final class VerifiedTokenCache: Sendable {
    private let entries = Locked(Entries())
    let capacity: Int

    private struct Entries {
        var tokens: [String: AuthenticatedToken] = [:]
        /// Signature verifications made (not answered from the cache).
        var checks = 0
    }

    init(capacity: Int) {
        precondition(capacity > 0, "a cache holds at least one token")
        self.capacity = capacity
    }

    func token(_ text: String) -> AuthenticatedToken? {
        entries.withLock { $0.tokens[text] }
    }

    func insert(_ text: String, _ token: AuthenticatedToken, now: Date) {
        entries.withLock { entries in
            if entries.tokens.count >= capacity, entries.tokens[text] == nil {
                entries.tokens = entries.tokens.filter { now < $0.value.expiration }
                if entries.tokens.count >= capacity { entries.tokens.remove(at: entries.tokens.startIndex) }
            }
            entries.tokens[text] = token
        }
    }

    /// Counts a verification of a signature (not answered from the cache).
    func countSignatureCheck() {
        entries.withLock { $0.checks += 1 }
    }

    var count: Int { entries.withLock { $0.tokens.count } }

    var signatureChecks: Int { entries.withLock { $0.checks } }
}
