import BER
import Foundation
import Receipt
import ReceiptVerifier

/// The `verifier` target's checks beyond its validator's verdict, on inputs whose
/// payload decoded:
/// - `verifier-cache-difference`: the target's validator, which shares a `SignatureCache`
///   across inputs, gives the same reason and detail as a validator without one (the
///   cache only skips RSA operations it has seen succeed);
/// - `verifier-policy-difference`: the app-version and device-hash policies, which the
///   validator is not configured with, accept the receipt's own version and a device
///   whose hash it carries, and refuse another version and a hash one bit off.
public enum VerifierPolicyChecks {
    static let uncachedValidator = ReceiptValidator(
        anchors: VerifierFuzz.differential.verifier.chainVerifier.anchors,
        options: ReceiptValidator.Options(bundleIdentifier: "com.example.receiptforge", device: .skip))

    public static func check(_ input: [UInt8], verdict: Verdict, now: Date) -> (signature: String, detail: String)? {
        guard let receipt = verdict.receipt else { return nil }
        let uncached = uncachedValidator.validate(input, now: now)
        if uncached.reason != verdict.reason || uncached.detail != verdict.detail {
            return ("verifier-cache-difference", "\(uncached.reason.rawValue) without the cache, \(verdict.reason.rawValue) with it")
        }
        return policyFinding(receipt).map { ("verifier-policy-difference", $0) }
    }

    /// What the app-version and device-hash policies get wrong on `receipt`, or nil.
    public static func policyFinding(_ receipt: AppReceipt) -> String? {
        let time = ASN1Time(secondsSince1970: 0)
        let version = receipt.appVersion ?? ""
        if (AppVersionPolicy(version).check(receipt, now: time) == nil) != (receipt.appVersion != nil) {
            return "app version \(version)"
        }
        if AppVersionPolicy(version + ".1").check(receipt, now: time)?.reason != .versionMismatch {
            return "another app version accepted"
        }
        let device = ReceiptTypedChecks.device(for: receipt)
        let own = DeviceHashPolicy(device).check(receipt, now: time)
        if (own == nil) != DeviceHash.matches(receipt, device: device) || (own != nil && own?.reason != .deviceHashMismatch) {
            return "device hash policy and DeviceHash.matches differ"
        }
        guard let expected = DeviceHash.expected(for: receipt, device: device) else { return nil }
        var carrying = receipt
        carrying.sha1Hash = expected
        if DeviceHashPolicy(device).check(carrying, now: time) != nil { return "the device's own hash refused" }
        carrying.sha1Hash![0] ^= 0x80
        if DeviceHashPolicy(device).check(carrying, now: time)?.reason != .deviceHashMismatch {
            return "a hash one bit off accepted"
        }
        return nil
    }
}
