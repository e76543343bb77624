/// The `status` of a verifyReceipt answer (VERIFYRECEIPT.md, "Status codes"). The HTTP
/// code is 200 for every one of them; the status travels in the JSON body.
public struct VerifyReceiptStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The receipt is valid.
    public static let valid = VerifyReceiptStatus(rawValue: 0)
    /// The request was not made with POST.
    public static let notPOST = VerifyReceiptStatus(rawValue: 21000)
    /// `receipt-data` malformed or missing (also: Xcode-signed receipts, a body that is not JSON).
    public static let malformedReceiptData = VerifyReceiptStatus(rawValue: 21002)
    /// The receipt could not be authenticated.
    public static let notAuthenticated = VerifyReceiptStatus(rawValue: 21003)
    /// The shared secret does not match.
    public static let sharedSecretMismatch = VerifyReceiptStatus(rawValue: 21004)
    /// The receipt server is temporarily unavailable.
    public static let serverUnavailable = VerifyReceiptStatus(rawValue: 21005)
    /// A sandbox receipt sent to production.
    public static let sandboxReceiptAtProduction = VerifyReceiptStatus(rawValue: 21007)
    /// A production receipt sent to sandbox.
    public static let productionReceiptAtSandbox = VerifyReceiptStatus(rawValue: 21008)
    /// Internal data access error.
    public static let internalDataAccessError = VerifyReceiptStatus(rawValue: 21009)

    /// 21100–21199: internal errors, answered with `is_retryable`.
    public static let internalErrors = 21100...21199

    public var isInternalError: Bool { Self.internalErrors.contains(rawValue) }

    public var description: String { String(rawValue) }
}
