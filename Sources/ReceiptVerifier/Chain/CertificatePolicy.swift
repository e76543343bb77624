import BER
import Receipt

/// Why a policy refused a receipt or a certificate: a stable reason, for a
/// certificate also its fine-grained `ChainFailure` code, and what was wrong.
public struct PolicyFailure: Hashable, Sendable {
    /// The stable reason the verdict reports.
    public var reason: VerdictReason
    /// What was wrong, in words.
    public var detail: String
    /// A certificate policy's code (`reason` is then `chainFailure.reason`); nil for
    /// a receipt policy.
    public var chainFailure: ChainFailure?

    /// A receipt policy's failure.
    public init(_ reason: VerdictReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
        chainFailure = nil
    }

    /// A certificate policy's failure, reported under the code's reason.
    public init(_ chainFailure: ChainFailure, _ detail: String) {
        reason = chainFailure.reason
        self.detail = detail
        self.chainFailure = chainFailure
    }
}

/// One rule a certificate of a candidate chain must satisfy. `chain` runs from the
/// signer (index 0) to the certificate being checked, which is `chain.last`; the
/// verification time is a parameter, never read from a clock. A failure names its
/// `ChainFailure` code (`PolicyFailure(_:_:)` with a code), which the verdict carries.
public protocol CertificatePolicy: Sendable {
    /// The failure of `chain.last` under this rule at `time`, or nil when it passes.
    func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure?
}

extension Array where Element == any CertificatePolicy {
    /// The first failure, in order; nil if every policy accepts.
    func firstFailure(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        for policy in self {
            if let failure = policy.check(chain, at: time) { return failure }
        }
        return nil
    }
}

/// Each certificate must be valid at the verification time (RFC 5280 §6.1.3 (a)(2)).
public struct ValidityPolicy: CertificatePolicy {
    /// The policy; it has no settings.
    public init() {}

    /// `expired` or `notYetValid` when `time` is outside the certificate's validity.
    public func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        let validity = chain.last!.validity
        if validity.contains(time) { return nil }
        let failure: ChainFailure = time < validity.notBefore ? .notYetValid : .expired
        let when = failure == .notYetValid ? "not yet valid" : "expired"
        return PolicyFailure(failure, "\(when) at \(time) (valid \(validity.notBefore) to \(validity.notAfter))")
    }
}

/// No certificate may carry a critical extension the verifier does not understand
/// (RFC 5280 §4.2).
public struct CriticalExtensionsPolicy: CertificatePolicy {
    /// The policy; it has no settings.
    public init() {}

    /// A failure when the certificate has a critical extension outside `CertificateExtensions.understood`.
    public func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        let unhandled = chain.last!.extensions.unhandledCriticalExtensions
        guard !unhandled.isEmpty else { return nil }
        return PolicyFailure(.unhandledCriticalExtension,
                             "unhandled critical extension \(unhandled.map(\.description).joined(separator: ", "))")
    }
}

/// Issuers must be CAs (basicConstraints cA), and an issuer's pathLenConstraint
/// bounds the non-self-issued intermediates below it (RFC 5280 §4.2.1.9, §6.1.4 (k), (l)).
public struct BasicConstraintsPolicy: CertificatePolicy {
    /// The policy; it has no settings.
    public init() {}

    /// A failure when an issuer is not a CA or its path length constraint is exceeded.
    public func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        let index = chain.count - 1
        guard index > 0 else { return nil }
        guard let constraints = chain[index].extensions.basicConstraints, constraints.isCertificateAuthority else {
            return PolicyFailure(.notCertificateAuthority, "issues certificate \(index - 1) but is not a CA (basicConstraints cA)")
        }
        if let limit = constraints.pathLengthConstraint {
            let intermediates = chain[1..<index].filter { !$0.isSelfIssued }.count
            if intermediates > limit {
                return PolicyFailure(.pathLengthExceeded,
                                     "pathLenConstraint \(limit) allows \(limit) intermediates below it, the chain has \(intermediates)")
            }
        }
        return nil
    }
}

/// Where keyUsage is present: issuers need keyCertSign (RFC 5280 §4.2.1.3), the
/// signer digitalSignature.
public struct KeyUsagePolicy: CertificatePolicy {
    /// The policy; it has no settings.
    public init() {}

    /// A failure when a present keyUsage lacks the bit the certificate's place in the chain needs.
    public func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        guard let usage = chain.last!.extensions.keyUsage else { return nil }
        if chain.count > 1 {
            return usage.contains(.keyCertSign) ? nil : PolicyFailure(.issuerKeyUsage, "keyUsage lacks keyCertSign")
        }
        return usage.contains(.digitalSignature) ? nil : PolicyFailure(.signerKeyUsage, "keyUsage lacks digitalSignature")
    }
}

/// App Store receipts: the signer carries Apple's receipt-signing marker
/// (1.2.840.113635.100.6.11.1) and its issuer the WWDR intermediate marker
/// (1.2.840.113635.100.6.2.1), as many validators require. Not for Xcode
/// StoreKit-testing receipts, whose self-signed certificate has neither.
public struct AppleReceiptMarkersPolicy: CertificatePolicy {
    /// The policy; it has no settings.
    public init() {}

    /// A failure when the signer or its issuer lacks Apple's marker extension.
    public func check(_ chain: [Certificate], at time: ASN1Time) -> PolicyFailure? {
        let extensions = chain.last!.extensions
        switch chain.count {
        case 1 where !extensions.hasAppleReceiptSigningMarker:
            return PolicyFailure(.missingReceiptSigningMarker, "signer lacks Apple's receipt-signing marker \(OID.appleReceiptSigningMarker)")
        case 2 where !extensions.hasAppleWWDRIntermediateMarker:
            return PolicyFailure(.missingWWDRMarker, "issuer lacks Apple's WWDR intermediate marker \(OID.appleWWDRIntermediateMarker)")
        default:
            return nil
        }
    }
}
