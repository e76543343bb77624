import BER
import Receipt

/// One rule a decoded receipt must satisfy once its signature and chain verified.
/// `now` is the caller's clock reading, never read inside a policy.
public protocol ReceiptPolicy: Sendable {
    /// The failure `receipt` has under this rule at `now`, or nil when it passes.
    func check(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure?
}

extension Array where Element == any ReceiptPolicy {
    /// The first failure, in order; nil if every policy accepts.
    func firstFailure(_ receipt: AppReceipt, now: ASN1Time) -> PolicyFailure? {
        for policy in self {
            if let failure = policy.check(receipt, now: now) { return failure }
        }
        return nil
    }
}

/// Quotes a receipt string for a detail message, or says it is absent.
func quoted(_ text: String?) -> String {
    text.map { "\"\($0)\"" } ?? "absent"
}
