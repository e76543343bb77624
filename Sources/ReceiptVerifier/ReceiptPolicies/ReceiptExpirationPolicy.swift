import BER
import Receipt

/// Volume Purchase Program receipts (attribute 21 present) expire at that date: the
/// one check made against the current time. Absent or empty: never expires.
///
/// The boundary: the expiration date is the first instant the receipt is no longer
/// valid, as Apple's subscription expiry dates are read. At `now` equal to it the
/// receipt is expired; one second earlier it is valid. The comparison is to the
/// second (`now` has no fraction; the expiry's fraction is dropped), so an expiry of
/// 12:00:00.500 is expired from 12:00:00.
public struct ReceiptExpirationPolicy: ReceiptPolicy {
    /// The policy; it has no settings.
    public init() {}

    /// `receiptExpired` when attribute 21 is at or before `now`.
    public func check(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure? {
        guard let expiration = receipt.expirationDate, expiration.secondsSince1970 <= now.secondsSince1970 else {
            return nil
        }
        return PolicyFailure(.receiptExpired, "payload attribute 21 (expiration date) \(expiration.text) is not after now (\(now))")
    }
}
