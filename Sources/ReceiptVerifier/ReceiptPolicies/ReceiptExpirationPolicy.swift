import BER
import Receipt

/// Volume Purchase Program receipts (attribute 21 present) expire at that date: the
/// one check made against the current time. Absent or empty: never expires.
public struct ReceiptExpirationPolicy: ReceiptPolicy {
    public init() {}

    public func check(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure? {
        guard let expiration = receipt.expirationDate, expiration.secondsSince1970 < now.secondsSince1970 else {
            return nil
        }
        return PolicyFailure(.receiptExpired, "payload attribute 21 (expiration date) \(expiration.text) is before now (\(now))")
    }
}
