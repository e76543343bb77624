import AppInput
import Foundation
import OwnedFileTree
import StoreAPIAuthentication

/// The forge's App Store Server API test key as a fixture tree holds it, in `api-key/`
/// (a forge tree of its own, like `storekit2/`): `SubscriptionKey_KEYID.p8` and
/// `api-key.json` (`{keyId, issuerId, bundleId, privateKeyFile}`,
/// `Schemas/api-key.schema.json`). Derived from the forge's seed (`TestAPIKey`), so
/// `forge serve` knows the key without reading the tree.
public struct TestAPIKeyFolder: Sendable {
    /// The folder's name inside a fixture tree.
    public static let name = "api-key"
    /// The description's file name inside the folder.
    public static let descriptionFile = "api-key.json"

    /// The key, derived from the forge's seed.
    public let key: TestAPIKey
    /// The app the key is for.
    public let bundleIdentifier: String

    /// The folder for the key of `settings`' seed and `app`.
    public init(settings: ForgeSettings, app: AppDescription) {
        key = TestAPIKey(seed: settings.seed)
        bundleIdentifier = app.bundleIdentifier
    }

    /// The folder's files, relative to it.
    public func files() throws -> [(String, [UInt8])] {
        [(key.fileName, Array(key.p8.utf8)),
         (Self.descriptionFile, try forgeJSON(key.description(bundleIdentifier: bundleIdentifier)))]
    }

    /// Replaces the folder at `directory` (a forge tree: `.forge-owned`; the user's own
    /// files in it are kept).
    @discardableResult
    public func write(to directory: URL) throws -> OutputTree.Report {
        try OutputTree(directory: directory, ownership: .recordOnly).replaceTree(with: try files())
    }
}
