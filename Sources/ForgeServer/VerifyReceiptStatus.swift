/// The `status` of a verifyReceipt answer (VERIFYRECEIPT.md, "Status codes"). The HTTP
/// code is 200 for every one of them; the status travels in the JSON body.
package struct VerifyReceiptStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int

    package init(rawValue: Int) { self.rawValue = rawValue }

    /// The receipt is valid.
    package static let valid = VerifyReceiptStatus(rawValue: 0)
    /// The request was not made with POST.
    package static let notPOST = VerifyReceiptStatus(rawValue: 21000)
    /// `receipt-data` malformed or missing (also: Xcode-signed receipts, a body that is not JSON).
    package static let malformedReceiptData = VerifyReceiptStatus(rawValue: 21002)
    /// The receipt could not be authenticated.
    package static let notAuthenticated = VerifyReceiptStatus(rawValue: 21003)
    /// The shared secret does not match.
    package static let sharedSecretMismatch = VerifyReceiptStatus(rawValue: 21004)
    /// The receipt server is temporarily unavailable.
    package static let serverUnavailable = VerifyReceiptStatus(rawValue: 21005)
    /// A sandbox receipt sent to production.
    package static let sandboxReceiptAtProduction = VerifyReceiptStatus(rawValue: 21007)
    /// A production receipt sent to sandbox.
    package static let productionReceiptAtSandbox = VerifyReceiptStatus(rawValue: 21008)
    /// Internal data access error.
    package static let internalDataAccessError = VerifyReceiptStatus(rawValue: 21009)

    /// 21100–21199: internal errors, answered with `is_retryable`.
    package static let internalErrors = 21100...21199

    package var isInternalError: Bool { Self.internalErrors.contains(rawValue) }

    package var description: String { String(rawValue) }
}
