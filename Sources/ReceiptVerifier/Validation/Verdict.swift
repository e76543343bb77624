import Receipt

/// What a verification concluded: a stable reason code (the forge's manifest uses the
/// same codes), for a refused chain also a stable fine-grained `ChainFailure` code, for
/// a refused receipt signature a `SignatureFailure` code, a
/// human-readable detail that says what was wrong and where (byte offset and schema
/// path when it comes from a parse error, certificate index and subject when it comes
/// from the chain), and whatever was decoded along the way. Match the codes, not the
/// detail text.
///
/// Verification never throws for bad input: every outcome is a `Verdict`.
public struct Verdict: Sendable, CustomStringConvertible {
    /// The stable reason code: `valid`, or the first check that failed.
    public let reason: VerdictReason
    /// Which chain rule refused the receipt, when the chain did (always so for
    /// `untrusted-chain`; also for a certificate that `expired`, is `not-yet-valid`,
    /// or whose signature does not verify); nil otherwise.
    public let chainFailure: ChainFailure?
    /// Why the signer's signature over the receipt was refused (always so for
    /// `signature-invalid`, unless a certificate's signature in the chain failed: that
    /// is the chain failure `signature-invalid`); nil otherwise.
    public let signatureFailure: SignatureFailure?
    /// What was found, in words: which field, which certificate, which value.
    public let detail: String
    /// The decoded payload, whenever it decoded (also for most invalid verdicts).
    public let receipt: AppReceipt?
    /// Signer first, trust anchor last, once signature and chain verified; else empty.
    public let chain: [Certificate]

    /// A verdict with a reason that is neither a chain nor a signature failure.
    public init(_ reason: VerdictReason, _ detail: String, receipt: AppReceipt? = nil, chain: [Certificate] = []) {
        self.reason = reason
        chainFailure = nil
        signatureFailure = nil
        self.detail = detail
        self.receipt = receipt
        self.chain = chain
    }

    /// A refused chain's verdict, under the code's reason.
    public init(_ chainFailure: ChainFailure, _ detail: String, receipt: AppReceipt? = nil) {
        reason = chainFailure.reason
        self.chainFailure = chainFailure
        signatureFailure = nil
        self.detail = detail
        self.receipt = receipt
        chain = []
    }

    /// A refused receipt signature's verdict: `signature-invalid`, with the code.
    public init(_ signatureFailure: SignatureFailure, _ detail: String, receipt: AppReceipt? = nil) {
        reason = .signatureInvalid
        chainFailure = nil
        self.signatureFailure = signatureFailure
        self.detail = detail
        self.receipt = receipt
        chain = []
    }

    private init(reason: VerdictReason, chainFailure: ChainFailure?, signatureFailure: SignatureFailure?, detail: String,
                 receipt: AppReceipt?, chain: [Certificate]) {
        self.reason = reason
        self.chainFailure = chainFailure
        self.signatureFailure = signatureFailure
        self.detail = detail
        self.receipt = receipt
        self.chain = chain
    }

    /// True when the reason is `valid`.
    public var isValid: Bool { reason == .valid }

    /// `valid` or `invalid`, as in the manifest's `expected.verdict`.
    public var verdict: VerdictKind { reason.verdict }

    /// `valid (valid): …` or `invalid (reason): detail`.
    public var description: String { "\(verdict) (\(reason.rawValue)): \(detail)" }

    /// The same verdict with the decoded receipt attached.
    func with(receipt: AppReceipt?) -> Verdict {
        Verdict(reason: reason, chainFailure: chainFailure, signatureFailure: signatureFailure, detail: detail,
                receipt: receipt, chain: chain)
    }
}
