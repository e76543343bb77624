import AppInput
import ReceiptForge

/// What a store is built from: the app (its products: the built-in catalogue, a
/// `.storekit` catalogue or an explicit list), its App Store id, the environment, the
/// seed every id and offset is drawn from, the instant its clock starts at, and how
/// many customers the default population has.
///
/// Production and sandbox are two stores, one configuration each: Apple's environments
/// share no account, transaction or id, a client picks one by its base URL, and a test
/// that refunds in sandbox must not see production change.
public struct StoreConfiguration: Sendable, Hashable {
    /// The app: bundle id, version, and its products.
    public var app: AppDescription
    /// The app's Apple ID, which Production payloads carry.
    public var appAppleId: Int64
    /// Production or sandbox.
    public var environment: AppEnvironment
    /// The seed every id and offset is drawn from: the same configuration gives the same store.
    public var seed: UInt64
    /// The clock's first reading: by default the receipt forge's creation date (a receipt
    /// minted "now" and the store agree), `ForgeSettings.creationDate` in milliseconds.
    public var start: StoreInstant
    /// Customers of the default population (0: an empty store).
    public var customers: Int

    /// 20.
    public static let defaultCustomers = 20

    /// A configuration; the environment defaults to the app's, the start to the receipt forge's default creation date.
    public init(app: AppDescription = .example, appAppleId: Int64 = AppDescription.defaultAppAppleId,
                environment: AppEnvironment? = nil, seed: UInt64 = ForgeSettings.defaultSeed,
                start: StoreInstant? = nil, customers: Int = StoreConfiguration.defaultCustomers) {
        self.app = app
        self.appAppleId = appAppleId
        self.environment = environment ?? app.environment
        self.seed = seed
        self.start = start ?? ForgeSettings().creationDate * 1_000
        self.customers = customers
    }
}
