import AppInput
import Foundation
import StoreAPIAuthentication

/// Whether and how the Server API checks `Authorization`.
public enum ServerAPIAuthentication: Sendable {
    /// Every request is answered (`forge serve --no-auth`).
    case disabled
    /// Bearer tokens are checked against the wall clock (not the store's: a token is
    /// made by a client from its real clock however far the store's has moved).
    case bearerTokens(BearerTokenVerifier)

    /// Accepts the forge's test key of `seed` (the one `forge --all` writes into
    /// `api-key/`) for tokens naming `bundleIdentifier`.
    public static func testKey(seed: UInt64, bundleIdentifier: String) -> ServerAPIAuthentication {
        // One key: no duplicate key id can arise.
        .bearerTokens(try! BearerTokenVerifier(keys: [TestAPIKey(seed: seed).apiKey], bundleIdentifier: bundleIdentifier))
    }
}
