import Receipt

/// What a verification concluded: a stable reason code (the forge's manifest uses the
/// same codes), a human-readable detail that says what was wrong and where (byte
/// offset and schema path when it comes from a parse error, certificate index and
/// subject when it comes from the chain), and whatever was decoded along the way.
///
/// Verification never throws for bad input: every outcome is a `Verdict`.
public struct Verdict: Sendable, CustomStringConvertible {
    public let reason: VerdictReason
    public let detail: String
    /// The decoded payload, whenever it decoded (also for most invalid verdicts).
    public let receipt: AppReceipt?
    /// Signer first, trust anchor last, once signature and chain verified; else empty.
    public let chain: [Certificate]

    public init(_ reason: VerdictReason, _ detail: String, receipt: AppReceipt? = nil, chain: [Certificate] = []) {
        self.reason = reason
        self.detail = detail
        self.receipt = receipt
        self.chain = chain
    }

    public var isValid: Bool { reason == .valid }

    /// `valid` or `invalid`, as in the manifest's `expected.verdict`.
    public var verdict: String { reason.verdict }

    public var description: String { "\(verdict) (\(reason.rawValue)): \(detail)" }

    /// The same verdict with the decoded receipt attached.
    func with(receipt: AppReceipt?) -> Verdict {
        Verdict(reason, detail, receipt: receipt, chain: chain)
    }
}
