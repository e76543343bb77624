import BER
import Foundation
import Receipt

/// Verifies the PKCS#7 SignedData around a receipt: its signature and the signer's
/// chain to the caller's trust anchors. Nothing about the payload's meaning is
/// checked here (that is `ReceiptValidator`'s receipt policies); this is the part
/// OpenSSL's `PKCS7_verify` also does, and the differential tests compare the two.
///
/// Checks run cheap to expensive, like swift-certificates' `CMS.isValidSignature`,
/// stopping at the first failure:
/// 1. structure: one SignerInfo, an `id-data` payload, no CRLs (receipts carry none,
///    and theirs would go unchecked here), the signer's digest listed in
///    `digestAlgorithms`;
/// 2. algorithms: digest SHA-1 or SHA-256, signature `rsaEncryption` or the
///    `shaNWithRSAEncryption` naming the same hash, parameters absent or NULL;
/// 3. every certificate parses (strictly: one broken certificate is `malformed`);
/// 4. the signer: found by issuer (canonical name match) and serial number, never by
///    position;
/// 5. signed attributes, when present: `messageDigest` equals the payload's digest;
/// 6. the RSA signature (over the payload, or over the signed attributes with their
///    `[0]` tag replaced by SET, RFC 5652 §5.4);
/// 7. the chain, last: through the receipt's other certificates to an anchor, at `time`.
public struct SignedDataVerifier: Sendable {
    /// Builds and checks the signer's chain: the anchors, certificate policies and length limit.
    public let chainVerifier: ChainVerifier

    /// A verifier whose chain step is `chainVerifier`.
    public init(chainVerifier: ChainVerifier) {
        self.chainVerifier = chainVerifier
    }

    /// The step of `verify` that decided: the signature (steps 1-6, up to and including
    /// the signer's RSA signature) or the chain (step 7). OpenSSL's `PKCS7_verify` also
    /// checks the signature before the chain; the differential tests compare the two.
    public enum Step: Sendable {
        /// Steps 1-6: structure, algorithms, certificates, signer, digest and signature.
        case signature
        /// Step 7: the chain to an anchor.
        case chain
    }

    /// Verifies `signedData` with its chain evaluated at `time`. On success the
    /// verdict carries the chain (signer first); `receipt` is never set here.
    public func verify(_ signedData: PKCS7SignedData, at time: ASN1Time, cache: SignatureCache? = nil) -> Verdict {
        var step = Step.signature
        return verify(signedData, at: time, cache: cache, reaching: &step)
    }

    /// `verify`, and the step that gave its verdict (`.chain` for a valid one).
    public func verifyReportingStep(_ signedData: PKCS7SignedData, at time: ASN1Time,
                                    cache: SignatureCache? = nil) -> (verdict: Verdict, step: Step) {
        var step = Step.signature
        let verdict = verify(signedData, at: time, cache: cache, reaching: &step)
        return (verdict, step)
    }

    private func verify(_ signedData: PKCS7SignedData, at time: ASN1Time, cache: SignatureCache?,
                        reaching step: inout Step) -> Verdict {
        // 1. Structure.
        guard signedData.signerInfos.count == 1 else {
            return Verdict(.malformed, "signedData.signerInfos holds \(signedData.signerInfos.count) signers; a receipt has exactly one")
        }
        let signerInfo = signedData.signerInfos[0]
        guard signedData.encapsulatedContentType == .pkcs7Data else {
            return Verdict(.malformed, "signedData.encapContentInfo.eContentType is \(signedData.encapsulatedContentType), not id-data")
        }
        guard let payload = signedData.payload else {
            return Verdict(.malformed, "signedData.encapContentInfo has no eContent: the payload is detached")
        }
        guard signedData.crls == nil else {
            return Verdict(.malformed, "signedData.crls is present; a receipt carries no CRLs")
        }

        // 2. Algorithms.
        let digest: DigestAlgorithm
        switch Self.digestAlgorithm(signerInfo.digestAlgorithm) {
        case .success(let algorithm): digest = algorithm
        case .failure(let failure): return failure.verdict
        }
        guard signedData.digestAlgorithms.contains(where: { $0.oid == signerInfo.digestAlgorithm.oid }) else {
            return Verdict(.malformed, "signerInfos[0].digestAlgorithm \(digest.rawValue) is not listed in signedData.digestAlgorithms")
        }
        if let verdict = Self.checkSignatureAlgorithm(signerInfo.signatureAlgorithm, digest: digest) { return verdict }

        // 3. Certificates: every one of the SET must decode (`CertificateSyntax`); only
        // those the signature and the chain use must also parse as RFC 5280 certificates.
        // One that does not is left out, and its error is the verdict only if the
        // verification then fails without it.
        var certificates: [Certificate] = []
        var positions: [Int] = []  // each one's index in the SET
        var unusable: (index: Int, error: CertificateError)?
        certificates.reserveCapacity(signedData.certificates.count)
        for (index, bytes) in signedData.certificates.enumerated() {
            // The receipt's copy of an anchor (App Store receipts carry the root) is the
            // anchor the caller already had parsed.
            if let anchor = chainVerifier.anchors.first(where: { sameBytes($0.encoded, bytes) }) {
                certificates.append(anchor)
                positions.append(index)
                continue
            }
            do {
                if let cache {
                    certificates.append(try cache.receiptCertificate(bytes))
                } else {
                    certificates.append(try Certificate(bytes, rules: PKCS7SignedData.rules))
                }
                positions.append(index)
            } catch {
                do {
                    try CertificateSyntax.check(bytes, rules: PKCS7SignedData.rules, decoder: .openSSL3_0)
                } catch {
                    return Self.unparseable(index, error)
                }
                unusable = unusable ?? (index, error)
            }
        }

        // 4. The signer.
        let signerIndex: Int
        switch Self.findSigner(signerInfo.signerIdentifier, in: certificates) {
        case .success(let index): signerIndex = index
        case .failure(let failure): return unusable.map(Self.unparseable) ?? failure.verdict
        }
        let signer = certificates[signerIndex]

        // 5. and 6. Signed attributes and the signature (skipped when `cache` holds this
        // exact key, digest and signature as verified).
        let signedDigest: [UInt8]
        if let attributes = signerInfo.signedAttributes {
            switch SignedAttributes.messageDigest(in: attributes) {
            case .failure(let error):
                return Verdict(.malformed, "signerInfos[0].signedAttrs: \(error)")
            case .success(let messageDigest):
                guard messageDigest.elementsEqual(digest.digest(payload)) else {
                    return Verdict(.messageDigestMismatch,
                                   "signerInfos[0].signedAttrs: messageDigest does not match the \(digest.rawValue) of the payload")
                }
            }
            signedDigest = digest.digest(SignedAttributes.signedBytes(attributes))
        } else {
            signedDigest = digest.digest(payload)
        }
        let check: SignatureCheck
        if let signerKey = signer.publicKey.rsa {
            if let cache, cache.containsVerifiedSignature(signerInfo.signature, digest: signedDigest, algorithm: digest,
                                                          key: signerKey) {
                check = .valid
            } else {
                check = signerKey.checkSignature(signerInfo.signature, digest: signedDigest, algorithm: digest)
                if check == .valid {
                    cache?.insertVerifiedSignature(signerInfo.signature, digest: signedDigest, algorithm: digest,
                                                   key: signerKey)
                }
            }
        } else {
            check = .invalid(.keyMismatch, "the signer's key is not RSA: a receipt signature is RSA PKCS#1 v1.5")
        }
        if case .invalid(let failure, let why) = check {
            return Verdict(failure, "signerInfos[0].signature by certificates[\(positions[signerIndex])] (\(signer.displayName)) does not verify: \(why)")
        }

        // 7. The chain, last.
        step = .chain
        var others = certificates
        others.remove(at: signerIndex)
        let chain = chainVerifier.verify(signer, intermediates: others, at: time, cache: cache)
        guard chain.isValid else {
            if let unusable { return Self.unparseable(unusable.index, unusable.error) }
            let detail = "chain at \(time): \(chain.detail)"
            return chain.chainFailure.map { Verdict($0, detail) } ?? Verdict(chain.reason, detail)
        }
        return Verdict(.valid, "signature by \(signer.displayName) verifies; \(chain.detail), valid at \(time)", chain: chain.chain)
    }

    /// The verdict on a receipt whose `certificates[index]` does not parse.
    static func unparseable(_ index: Int, _ error: CertificateError) -> Verdict {
        Verdict(error.verdictReason, "signedData.certificates[\(index)] does not parse: \(error) (offset within that certificate)")
    }

    /// The SignerInfo's digest algorithm, or the verdict refusing it.
    static func digestAlgorithm(_ identifier: AlgorithmIdentifier) -> Result<DigestAlgorithm, VerdictError> {
        guard let algorithm = DigestAlgorithm(oid: identifier.oid), DigestAlgorithm.acceptedInReceipts.contains(algorithm) else {
            return .failure(VerdictError(.unsupportedAlgorithm,
                                           "signerInfos[0].digestAlgorithm \(identifier.oid.shortName ?? identifier.oid.description) "
                                               + "is not sha1 or sha256"))
        }
        guard identifier.hasAbsentOrNullParameters else {
            return .failure(VerdictError(.malformed, "signerInfos[0].digestAlgorithm parameters must be absent or NULL"))
        }
        return .success(algorithm)
    }

    /// Nil if the SignerInfo's signature algorithm is RSA PKCS#1 v1.5 consistent with `digest`.
    static func checkSignatureAlgorithm(_ identifier: AlgorithmIdentifier, digest: DigestAlgorithm) -> Verdict? {
        guard let algorithm = SignatureAlgorithm(oid: identifier.oid) else {
            return Verdict(.unsupportedAlgorithm,
                           "signerInfos[0].signatureAlgorithm \(identifier.oid.shortName ?? identifier.oid.description) "
                               + "is not rsaEncryption, sha1WithRSAEncryption or sha256WithRSAEncryption")
        }
        if let named = algorithm.digestAlgorithm, named != digest {
            return Verdict(.unsupportedAlgorithm,
                           "signerInfos[0].signatureAlgorithm \(algorithm.rawValue) names \(named.rawValue), the digest algorithm is \(digest.rawValue)")
        }
        guard identifier.hasAbsentOrNullParameters else {
            return Verdict(.malformed, "signerInfos[0].signatureAlgorithm parameters must be absent or NULL")
        }
        return nil
    }

    /// The index of the certificate `identifier` names: issuer matching (canonical form,
    /// as chain building matches names) and the same serial number.
    static func findSigner(_ identifier: SignerIdentifier, in certificates: [Certificate]) -> Result<Int, VerdictError> {
        switch identifier {
        case .subjectKeyIdentifier:
            return .failure(VerdictError(.malformed, "signerInfos[0].sid is a subjectKeyIdentifier; PKCS#7 receipts name "
                                               + "their signer by issuerAndSerialNumber"))
        case .issuerAndSerialNumber(let issuerBytes, let serial):
            let wanted = serial.drop { $0 == 0 }
            func hasSerial(_ certificate: Certificate) -> Bool { sameBytes(certificate.serialNumber.drop { $0 == 0 }, wanted) }
            // Fast path: the issuer exactly as the certificate encodes it (always so
            // in receipts). Otherwise the sid's Name is parsed and matched canonically.
            if let index = certificates.firstIndex(where: { hasSerial($0) && sameBytes($0.issuer.encoded, issuerBytes) }) {
                return .success(index)
            }
            let issuer: DistinguishedName
            do {
                var reader = BERReader(issuerBytes, rules: .ber)
                let element = try reader.readElement()
                issuer = try DistinguishedName(element, path: ["signerInfos[0]", "sid", "issuer"])
            } catch let error as CertificateError {
                return .failure(VerdictError(.malformed, "\(error)"))
            } catch {
                return .failure(VerdictError(.malformed, "signerInfos[0].sid.issuer: \(error)"))
            }
            let index = certificates.firstIndex { hasSerial($0) && $0.issuer.matches(issuer) }
            guard let index else {
                return .failure(VerdictError(.signerNotFound,
                                               "no certificate in the receipt is the signer named by signerInfos[0].sid "
                                                   + "(issuer \(issuer), serial \(lowercaseHex(serial)))"))
            }
            return .success(index)
        }
    }
}

/// A verdict carried through a `Result`.
struct VerdictError: Error {
    let verdict: Verdict
    init(_ reason: VerdictReason, _ detail: String) { verdict = Verdict(reason, detail) }
    init(_ chainFailure: ChainFailure, _ detail: String) { verdict = Verdict(chainFailure, detail) }
}
