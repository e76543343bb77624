import AppInput

/// The two stores a server answers from: Apple's environments share no account,
/// transaction or id, and a client picks one by its base URL, so production and sandbox
/// are two `LocalAppStore`s built from one configuration (its `environment` aside).
public struct LocalAppStores: Sendable {
    public let production: LocalAppStore
    public let sandbox: LocalAppStore

    /// Both stores of `configuration` (whose `environment` is replaced by each store's),
    /// their clocks running at `clock`'s pace when there is one (`--time-rate`).
    public init(_ configuration: StoreConfiguration = StoreConfiguration(), clock: (any StoreClockSource)? = nil) {
        var production = configuration
        production.environment = .production
        var sandbox = configuration
        sandbox.environment = .sandbox
        self.production = LocalAppStore(production, clock: clock)
        self.sandbox = LocalAppStore(sandbox, clock: clock)
    }

    public func store(_ environment: AppEnvironment) -> LocalAppStore {
        environment == .production ? production : sandbox
    }

    /// The app both stores sell for (its bundle id is the one tokens must name).
    public var app: AppDescription { production.configuration.app }
}

extension LocalAppStores {
    /// The bundle id of the default stores' app (the example app's).
    public static let defaultBundleIdentifier = AppDescription.example.bundleIdentifier
}
