import ArgumentParser
import Receipt
import ReceiptForge

/// `--now` and `--seed`: the reference time and the seed of a forge run (`forge mint`,
/// and `forge check` when it mints). A bad `--now` is a usage error (64).
package struct ReferenceOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp(
        "Reference current time, RFC 3339 (default \(ReceiptDate(secondsSince1970: ForgeSettings.defaultNow).text)).",
        discussion: "Receipts are created about 30 days before it; VPP expiry is judged against it. 2024-03-01...2089-12-31.",
        valueName: "DATE"))
    package var now: String?

    @Option(help: ArgumentHelp("Seed of the device ids, opaque values and transaction ids (default \(ForgeSettings.defaultSeed)).",
                               valueName: "N"))
    package var seed: UInt64?

    /// Whether either option was given.
    package var isGiven: Bool { now != nil || seed != nil }

    package func validate() throws {
        _ = try nowSeconds()
    }

    /// The settings the options describe, the defaults for what they leave out.
    package func settings() throws -> ForgeSettings {
        ForgeSettings(now: try nowSeconds() ?? ForgeSettings.defaultNow, seed: seed ?? ForgeSettings.defaultSeed)
    }

    package func nowSeconds() throws -> Int64? {
        guard let now else { return nil }
        guard let date = ReceiptDate(now) else { throw ValidationError("--now: '\(now)' is not an RFC 3339 date") }
        guard ForgeSettings.allowedNow.contains(date.secondsSince1970) else {
            throw ValidationError("--now must lie between 2024-03-01 and 2089-12-31")
        }
        return date.secondsSince1970
    }
}
