import Receipt

/// The app the fixtures are minted for: its bundle id, versions, platform, the device
/// the test runs on, the environment, and what the user bought. Every case is minted
/// for it (`wrong-bundle` then carries another bundle, `copied-device` another device,
/// `wrong-version` another version).
///
/// ```swift
/// let app = AppDescription(bundleIdentifier: "com.acme.shop", version: "7.1",
///                          device: DeviceIdentifier(text: "956328D9-CC6A-47F4-BE40-6953FB0AB6C7"))
/// ```
public struct AppDescription: Sendable, Hashable {
    public var bundleIdentifier: String
    /// Attribute 3: `CFBundleVersion` (iOS) or `CFBundleShortVersionString` (macOS).
    public var version: String
    /// Attribute 19; nil: "17" on iOS, "2.0" on macOS ("1.0" in sandbox receipts, as Apple writes).
    public var originalVersion: String?
    public var platform: Platform
    /// The device the app runs on; nil: one drawn from the seed (a UUID on iOS, a MAC on macOS).
    public var device: DeviceIdentifier?
    public var environment: AppEnvironment
    public var purchases: PurchasePlan

    public init(bundleIdentifier: String = AppDescription.example.bundleIdentifier, version: String = AppDescription.example.version,
                originalVersion: String? = nil, platform: Platform? = nil, device: DeviceIdentifier? = nil,
                environment: AppEnvironment = .production, purchases: PurchasePlan = .builtIn) {
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.originalVersion = originalVersion
        // A MAC address means a Mac; otherwise iOS unless told.
        self.platform = platform ?? (device?.kind == .macAddress ? .macos : .ios)
        self.device = device
        self.environment = environment
        self.purchases = purchases
    }

    private init(example: Void) {
        bundleIdentifier = "com.example.receiptforge"
        version = "42"
        originalVersion = nil
        platform = .ios
        device = nil
        environment = .production
        purchases = .builtIn
    }

    /// The fictional app of the built-in catalogue: `com.example.receiptforge`, version 42.
    public static let example = AppDescription(example: ())

    /// 1234567890: the app's Apple id (`appAppleId`) of the JWS forge's payloads and the
    /// local App Store's production answers unless told another.
    public static let defaultAppAppleId: Int64 = 1_234_567_890

    /// Problems a forge cannot mint around: a device of the wrong kind for the platform,
    /// an empty bundle id or version. Nil when the description is usable.
    public var problem: String? {
        if bundleIdentifier.isEmpty { return "the bundle id is empty" }
        if version.isEmpty { return "the app version is empty" }
        if let device {
            switch (platform, device.kind) {
            case (.ios, .macAddress): return "the device \(device.formatted) is a MAC address, but the platform is iOS (give a UUID)"
            case (.macos, .uuid): return "the device \(device.formatted) is a UUID, but the platform is macOS (give the MAC address)"
            default: break
            }
        }
        return nil
    }
}

/// The environment receipts are issued in (attribute 0).
public enum AppEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"

    /// The value Apple writes into attribute 0.
    public var receiptValue: String {
        switch self {
        case .production: return "Production"
        case .sandbox: return "ProductionSandbox"
        }
    }
}

/// What the receipts record as bought.
public enum PurchasePlan: Sendable, Hashable {
    /// The built-in history of the fictional app (its own product ids).
    case builtIn
    /// A history built from a product catalogue (an Xcode `.storekit` file): each
    /// product bought, subscriptions renewed, one cancelled.
    case catalogue(ProductCatalogue)
    /// Exactly these in-app records (an `--app` file).
    case explicit([PurchaseDescription])
}
