import BER
import Receipt

/// Attribute 2 must be the app's bundle identifier, compared exactly (no case folding:
/// bundle identifiers are case-sensitive on the App Store).
public struct BundleIdentifierPolicy: ReceiptPolicy {
    /// The app's bundle identifier.
    public let expected: String

    /// A policy requiring attribute 2 to equal `expected`.
    public init(_ expected: String) {
        self.expected = expected
    }

    /// `bundleMismatch` unless attribute 2 equals `expected`.
    public func check(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure? {
        let actual = receipt.bundleIdentifier
        guard actual != expected else { return nil }
        return PolicyFailure(.bundleMismatch, "payload attribute 2 (bundle id) is \(quoted(actual)), the app is \"\(expected)\"")
    }
}
