import BER

/// Builds and verifies a chain from a signer certificate through a pool of
/// intermediates to one of the caller's trust anchors.
///
/// - Only an anchor ends a chain: a certificate is never trusted for being in the
///   pool, self-signed or not. The signer may itself be an anchor (Xcode receipts).
/// - Issuers are found by name (`DistinguishedName.matches`), anchors tried first;
///   a certificate appears at most once in a chain.
/// - Every certificate appended is checked by `policies` (cheap) before the
///   signature it vouches for is checked (an RSA operation, skipped when `cache`
///   holds the pair).
/// - The search is bounded: `maximumChainLength` certificates per chain (anchor
///   included), `maximumSignatureChecks` RSA operations per verification.
/// - When no chain verifies, the verdict names the failure found deepest in the
///   search (the first such on a tie): that is the one nearest to a trusted chain.
public struct ChainVerifier: Sendable {
    /// Certificates per chain, anchor included, unless the caller names another limit; receipts need 3.
    public static let defaultMaximumChainLength = 8
    /// Go's `maxChainSignatureChecks`: bounds the work a hostile pool can cause.
    public static let maximumSignatureChecks = 100
    /// Validity, critical extensions, basic constraints, key usage.
    public static let defaultPolicies: [any CertificatePolicy] = [
        ValidityPolicy(), CriticalExtensionsPolicy(), BasicConstraintsPolicy(), KeyUsagePolicy(),
    ]

    /// The certificates a chain may end at: the only ones trusted.
    public let anchors: [Certificate]
    /// The rules every certificate appended to a chain is checked by, in order.
    public let policies: [any CertificatePolicy]
    /// The most certificates a chain may have, anchor included.
    public let maximumChainLength: Int

    /// A verifier trusting `anchors`; precondition: `maximumChainLength` is at least 1.
    public init(anchors: [Certificate], policies: [any CertificatePolicy] = ChainVerifier.defaultPolicies,
                maximumChainLength: Int = ChainVerifier.defaultMaximumChainLength) {
        precondition(maximumChainLength >= 1, "a chain has at least the signer")
        self.anchors = anchors
        self.policies = policies
        self.maximumChainLength = maximumChainLength
        // The anchors' Montgomery constants (R² mod n) now, with the configuration,
        // rather than in the first verification that reaches them.
        for anchor in anchors { anchor.publicKey.rsa?.prepareMontgomeryContext() }
    }

    /// Verifies `signer` at `time` (for receipts: the receipt creation date).
    public func verify(_ signer: Certificate, intermediates: [Certificate], at time: ASN1Time,
                       cache: SignatureCache? = nil) -> ChainVerdict {
        if let failure = policies.firstFailure([signer], at: time) {
            return .failure(failure, index: 0, certificate: signer)
        }
        var search = Search(verifier: self, intermediates: intermediates, time: time, cache: cache)
        if let chain = search.extend([signer]) { return .valid(chain) }
        let (failure, index, certificate) = search.deepestFailure!
        return .failure(failure, index: index, certificate: certificate)
    }

    /// Verifies `signer` at a time given in seconds since 1970-01-01T00:00:00Z.
    public func verify(_ signer: Certificate, intermediates: [Certificate], atSecondsSince1970 seconds: Int64,
                       cache: SignatureCache? = nil) -> ChainVerdict {
        verify(signer, intermediates: intermediates, at: ASN1Time(secondsSince1970: seconds), cache: cache)
    }

    func isAnchor(_ certificate: Certificate) -> Bool {
        anchors.contains { $0.isSameCertificate(as: certificate) }
    }
}

/// One verification's depth-first search.
private struct Search {
    let verifier: ChainVerifier
    let intermediates: [Certificate]
    let time: ASN1Time
    let cache: SignatureCache?
    var signatureChecks = 0
    var deepestFailure: (PolicyFailure, index: Int, certificate: Certificate)?

    /// A trusted chain extending `chain`, or nil (with the reason recorded).
    mutating func extend(_ chain: [Certificate]) -> [Certificate]? {
        let current = chain.last!
        let index = chain.count - 1
        if verifier.isAnchor(current) { return chain }
        guard chain.count < verifier.maximumChainLength else {
            record(PolicyFailure(.chainTooLong, "no trust anchor within \(verifier.maximumChainLength) certificates"),
                   index: index, certificate: current)
            return nil
        }
        let candidates = (verifier.anchors + intermediates.filter { !verifier.isAnchor($0) }).filter { candidate in
            candidate.subject.matches(current.issuer)
                && !chain.contains { $0.isSameCertificate(as: candidate) }
        }
        if candidates.isEmpty {
            let failure = current.isSelfIssued
                ? PolicyFailure(.untrustedRoot, "self-issued and not a trust anchor")
                : PolicyFailure(.missingIssuer, "no trust anchor or intermediate is its issuer (\(current.issuer))")
            record(failure, index: index, certificate: current)
            return nil
        }
        for candidate in candidates {
            let extended = chain + [candidate]
            if let failure = verifier.policies.firstFailure(extended, at: time) {
                record(failure, index: index + 1, certificate: candidate)
                continue
            }
            if let failure = checkSignature(of: current, by: candidate) {
                record(failure, index: index, certificate: current)
                continue
            }
            if let trusted = extend(extended) { return trusted }
        }
        return nil
    }

    mutating func checkSignature(of certificate: Certificate, by issuer: Certificate) -> PolicyFailure? {
        guard certificate.signatureAlgorithm.digestAlgorithm != nil else {
            return PolicyFailure(.unsupportedSignatureAlgorithm, "signed with \(certificate.signatureAlgorithm.rawValue), which names no hash")
        }
        if let cache, cache.containsVerifiedPair(issuer: issuer, certificate: certificate) { return nil }
        signatureChecks += 1
        guard signatureChecks <= ChainVerifier.maximumSignatureChecks else {
            return PolicyFailure(.tooManySignatureChecks, "gave up after \(ChainVerifier.maximumSignatureChecks) signature checks")
        }
        switch issuer.publicKey.checkSignature(certificate.signature, message: certificate.tbsBytes,
                                               signatureAlgorithm: certificate.signatureAlgorithm) {
        case .valid:
            cache?.insertVerifiedPair(issuer: issuer, certificate: certificate)
            return nil
        case .invalid(_, let why):
            return PolicyFailure(.certificateSignatureInvalid, "signature by \(issuer.displayName) does not verify: \(why)")
        }
    }

    mutating func record(_ failure: PolicyFailure, index: Int, certificate: Certificate) {
        if let deepest = deepestFailure, deepest.index >= index { return }
        deepestFailure = (failure, index, certificate)
    }
}
