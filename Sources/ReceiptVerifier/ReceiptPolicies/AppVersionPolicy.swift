import BER
import Receipt

/// Attribute 3 must be the app's version (CFBundleVersion on iOS,
/// CFBundleShortVersionString on macOS), compared exactly.
public struct AppVersionPolicy: ReceiptPolicy {
    /// The app's version, as the app reads it from its bundle.
    public let expected: String

    /// A policy requiring attribute 3 to equal `expected`.
    public init(_ expected: String) {
        self.expected = expected
    }

    /// `versionMismatch` unless attribute 3 equals `expected`.
    public func check(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure? {
        let actual = receipt.appVersion
        guard actual != expected else { return nil }
        return PolicyFailure(.versionMismatch, "payload attribute 3 (app version) is \(quoted(actual)), the app is \"\(expected)\"")
    }
}
