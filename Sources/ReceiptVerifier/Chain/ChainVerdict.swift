import Receipt

/// The outcome of chain verification: a stable reason, a human-readable detail
/// naming the certificate at fault (its index in the candidate chain, 0 being the
/// signer, and its subject), and on success the chain itself.
public struct ChainVerdict: Sendable, CustomStringConvertible {
    /// `.valid`, or one of `untrusted-chain`, `certificate-expired`,
    /// `signature-invalid`, `unsupported-algorithm`, `malformed`.
    public let reason: VerdictReason
    /// Which rule refused the chain (`reason` is its reason); nil when valid, when a
    /// certificate did not parse (its `CertificateError` code says why), or when a
    /// caller's own `CertificatePolicy` reported a failure without a code.
    public let chainFailure: ChainFailure?
    /// What was found, naming the certificate at fault by index and subject.
    public let detail: String
    /// Index of the certificate at fault in the candidate chain (0: the signer); nil
    /// when valid.
    public let certificateIndex: Int?
    /// Signer first, trust anchor last; empty unless valid.
    public let chain: [Certificate]

    /// True when the reason is `valid`.
    public var isValid: Bool { reason == .valid }

    static func valid(_ chain: [Certificate]) -> ChainVerdict {
        let names = chain.map(\.displayName).joined(separator: " ← ")
        return ChainVerdict(reason: .valid, chainFailure: nil, detail: "chain of \(chain.count): \(names)", certificateIndex: nil,
                            chain: chain)
    }

    static func failure(_ failure: PolicyFailure, index: Int, certificate: Certificate) -> ChainVerdict {
        ChainVerdict(reason: failure.reason, chainFailure: failure.chainFailure,
                     detail: "certificate \(index) (\(certificate.displayName)): \(failure.detail)",
                     certificateIndex: index, chain: [])
    }

    /// A certificate that did not parse, at `index` of what the caller handed in.
    public static func unparsable(_ error: CertificateError, index: Int) -> ChainVerdict {
        ChainVerdict(reason: error.verdictReason, chainFailure: nil, detail: "certificate \(index) does not parse: \(error)",
                     certificateIndex: index, chain: [])
    }

    /// `reason: detail`.
    public var description: String { "\(reason.rawValue): \(detail)" }
}
