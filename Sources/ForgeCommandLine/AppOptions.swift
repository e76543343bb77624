import ArgumentParser
import Receipt
import ReceiptForge
import AppInput
import StrictJSON

extension Platform: ExpressibleByArgument {}
extension AppEnvironment: ExpressibleByArgument {}

/// The app the fixtures are minted for: `--bundle-id`, `--app-version`, `--storekit` …
/// Flags override an `--app` file; what neither sets keeps the example app's value.
package struct AppOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp(
        "Your app's bundle identifier (default com.example.receiptforge).", valueName: "ID"))
    package var bundleID: String?

    @Option(name: .customLong("app-version"), help: ArgumentHelp(
        "Your app's version: CFBundleVersion on iOS, CFBundleShortVersionString on macOS (default 42).", valueName: "V"))
    package var appVersion: String?

    @Option(name: .customLong("original-version"), help: ArgumentHelp(
        "Attribute 19, the version first bought (default 17 on iOS, 2.0 on macOS; sandbox receipts say 1.0).", valueName: "V"))
    package var originalVersion: String?

    @Option(help: ArgumentHelp("ios or macos (default ios, or macos when --device-id is a MAC address).", valueName: "ios|macos"))
    package var platform: Platform?

    @Option(name: .customLong("device-id"), help: ArgumentHelp(
        "The device your test runs as: identifierForVendor UUID (iOS), MAC address (macOS), or 32/12 hex digits (default: one per case from --seed).",
        valueName: "UUID|MAC|HEX"))
    package var deviceID: String?

    @Option(help: ArgumentHelp("Production or Sandbox (attribute 0: Production or ProductionSandbox; default Production).",
                               valueName: "Production|Sandbox"))
    package var environment: AppEnvironment?

    @Option(help: ArgumentHelp(
        "An Xcode StoreKit configuration file (.storekit): the receipts record purchases of its products "
            + "(each bought, subscriptions renewed, intro offers and trials flagged, one refunded).",
        valueName: "FILE"))
    package var storekit: String?

    @Option(help: ArgumentHelp(
        "A JSON file with the app settings above and an explicit purchase list (Schemas/app.schema.json); flags override it.",
        valueName: "FILE"))
    package var app: String?

    /// Whether any of these options was given.
    package var isGiven: Bool {
        bundleID != nil || appVersion != nil || originalVersion != nil || platform != nil || deviceID != nil
            || environment != nil || storekit != nil || app != nil
    }

    /// The app described by the options: the example app, then `--app FILE`, then
    /// `--storekit FILE`, then the flags. A bad value or file exits 65 naming the
    /// path and the JSON location; nothing is written.
    package func description(context: String) throws -> AppDescription {
        let base: AppDescription
        switch fileSettings() {
        case .success(let app): base = app
        case .failure(let error):
            printError("\(context): \(error)")
            throw ForgeExit.malformedInput.code
        }
        var device = base.device
        if let deviceID {
            guard let parsed = DeviceIdentifier(text: deviceID) else {
                printError("\(context): --device-id '\(deviceID)' is not a UUID, a MAC address, or 32 or 12 hex digits")
                throw ForgeExit.malformedInput.code
            }
            device = parsed
        }
        let app = AppDescription(bundleIdentifier: bundleID ?? base.bundleIdentifier, version: appVersion ?? base.version,
                                 originalVersion: originalVersion ?? base.originalVersion,
                                 platform: platform ?? (deviceID == nil ? base.platform : nil), device: device,
                                 environment: environment ?? base.environment, purchases: base.purchases)
        if let problem = app.problem {
            printError("\(context): \(problem)")
            throw ForgeExit.malformedInput.code
        }
        return app
    }

    /// The example app with what `--app` and `--storekit` set.
    package func fileSettings() -> Result<AppDescription, JSONInputError> {
        Result { () throws(JSONInputError) -> AppDescription in
            var base = AppDescription.example
            if let app { base = try AppFile(contentsOfFile: app).apply(to: base) }
            if let storekit { base.purchases = .catalogue(try StoreKitConfiguration(contentsOfFile: storekit).catalogue) }
            return base
        }
    }
}
