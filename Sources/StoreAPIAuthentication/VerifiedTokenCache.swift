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
final class VerifiedTokenCache: @unchecked Sendable {
    // @unchecked: `tokens` and `checks` are only touched with `lock` held.
    private let lock = NSLock()
    private var tokens: [String: AuthenticatedToken] = [:]
    private var checks = 0
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "a cache holds at least one token")
        self.capacity = capacity
    }

    func token(_ text: String) -> AuthenticatedToken? {
        lock.withLock { tokens[text] }
    }

    func insert(_ text: String, _ token: AuthenticatedToken, now: Date) {
        lock.withLock {
            if tokens.count >= capacity, tokens[text] == nil {
                tokens = tokens.filter { now < $0.value.expiration }
                if tokens.count >= capacity { tokens.remove(at: tokens.startIndex) }
            }
            tokens[text] = token
        }
    }

    /// Counts a verification of a signature (not answered from the cache).
    func countSignatureCheck() {
        lock.withLock { checks += 1 }
    }

    var count: Int { lock.withLock { tokens.count } }

    var signatureChecks: Int { lock.withLock { checks } }
}
