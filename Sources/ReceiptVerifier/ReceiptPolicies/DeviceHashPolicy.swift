import BER
import Receipt

/// Attribute 5 must be `SHA-1(device ‖ attribute 4 ‖ raw attribute 2)` for this device
/// (see `DeviceHash`): a receipt copied from another device fails.
public struct DeviceHashPolicy: ReceiptPolicy {
    /// The device the app runs on.
    public let device: DeviceIdentifier

    /// A policy requiring the receipt's device hash to be this device's.
    public init(_ device: DeviceIdentifier) {
        self.device = device
    }

    /// `deviceHashMismatch` when attribute 5 is not this device's hash, or cannot be computed.
    public func check(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure? {
        guard let expected = DeviceHash.expected(for: receipt, device: device) else {
            let missing = receipt.opaqueValue == nil ? "attribute 4 (opaque value)" : "attribute 2 (bundle id)"
            return PolicyFailure(.deviceHashMismatch, "payload lacks \(missing), so no device hash can be computed")
        }
        guard let actual = receipt.sha1Hash else {
            return PolicyFailure(.deviceHashMismatch, "payload lacks attribute 5 (device hash)")
        }
        guard !DeviceHash.matches(receipt, device: device) else { return nil }
        return PolicyFailure(.deviceHashMismatch,
                             "payload attribute 5 (device hash) is \(lowercaseHex(actual)); device \(device) "
                                 + "gives \(lowercaseHex(expected))")
    }
}
