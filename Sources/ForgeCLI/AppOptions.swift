import ArgumentParser
import Receipt
import ReceiptForge

extension Platform: ExpressibleByArgument {}
extension AppEnvironment: ExpressibleByArgument {}

/// The app the fixtures are minted for: `--bundle-id`, `--app-version`, `--storekit` …
/// Flags override an `--app` file; what neither sets keeps the example app's value.
struct AppOptions: ParsableArguments {
    @Option(name: .customLong("bundle-id"), help: ArgumentHelp(
        "Your app's bundle identifier (default com.example.receiptforge).", valueName: "ID"))
    var bundleID: String?

    @Option(name: .customLong("app-version"), help: ArgumentHelp(
        "Your app's version: CFBundleVersion on iOS, CFBundleShortVersionString on macOS (default 42).", valueName: "V"))
    var appVersion: String?

    @Option(name: .customLong("original-version"), help: ArgumentHelp(
        "Attribute 19, the version first bought (default 17 on iOS, 2.0 on macOS; sandbox receipts say 1.0).", valueName: "V"))
    var originalVersion: String?

    @Option(help: ArgumentHelp("ios or macos (default ios, or macos when --device-id is a MAC address).", valueName: "ios|macos"))
    var platform: Platform?

    @Option(name: .customLong("device-id"), help: ArgumentHelp(
        "The device your test runs as: identifierForVendor UUID (iOS), MAC address (macOS), or 32/12 hex digits (default: one per case from --seed).",
        valueName: "UUID|MAC|HEX"))
    var deviceID: String?

    @Option(help: ArgumentHelp("Production or Sandbox (attribute 0: Production or ProductionSandbox; default Production).",
                               valueName: "Production|Sandbox"))
    var environment: AppEnvironment?

    /// Whether any app option was given (the example app otherwise).
    var isCustom: Bool {
        bundleID != nil || appVersion != nil || originalVersion != nil || platform != nil || deviceID != nil
            || environment != nil
    }

    /// The app described by the options over `base`; a bad value exits 65 naming it.
    func description(over base: AppDescription = .example, context: String) throws -> AppDescription {
        var device = base.device
        if let deviceID {
            guard let parsed = DeviceIdentifier(text: deviceID) else {
                printError("\(context): --device-id '\(deviceID)' is not a UUID, a MAC address, or 32 or 12 hex digits")
                throw ForgeExit.malformedInput.code
            }
            device = parsed
        }
        let app = AppDescription(bundleID: bundleID ?? base.bundleID, version: appVersion ?? base.version,
                                 originalVersion: originalVersion ?? base.originalVersion,
                                 platform: platform ?? (deviceID == nil ? base.platform : nil), device: device,
                                 environment: environment ?? base.environment, purchases: base.purchases)
        if let problem = app.problem {
            printError("\(context): \(problem)")
            throw ForgeExit.malformedInput.code
        }
        return app
    }
}
