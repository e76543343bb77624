import BER
import ReceiptForge
import OpenSSLShim
import Receipt
import ReceiptVerifier

/// Our signature-and-chain verdict against OpenSSL's `PKCS7_verify` on the same bytes,
/// the same single trust anchor and the same validation time. The one comparison both
/// the agreement tests (`VerifierTests`) and the `verifier` fuzz target use.
///
/// Like is compared with like: our side is `SignedDataVerifier` with the default
/// certificate policies (validity, critical extensions, basicConstraints, keyUsage)
/// and **without** Apple's marker policy, which OpenSSL knows nothing of; OpenSSL
/// runs with purpose `any` and `X509_VERIFY_PARAM_set_time` (see `rf_pkcs7_verify`).
/// Nothing about the payload's meaning is compared.
///
/// Accepting what OpenSSL refuses is a difference, except where OpenSSL's path
/// building misses a chain it accepts when given it (`whitelist[.valid]`). Refusing
/// what OpenSSL accepts is a difference too, except for the other reasons in
/// `whitelist`, where we are stricter on purpose. When both refuse, the steps that
/// refused (`Refusal`: parse, signature, chain) must be the same, except that we may
/// stop earlier for a whitelisted reason (a stricter parse or algorithm rule).
public struct VerifierDifferential: Sendable {
    /// The step at which a side refused. Both sides run them in this order.
    public enum Refusal: Int, Comparable, Sendable, CustomStringConvertible {
        /// The container or a certificate does not decode. Ours: `malformed`, and
        /// `unsupported-algorithm` before the chain, because algorithms are checked
        /// while reading the structure, before the certificates and the signer's name
        /// are parsed (`SignedDataVerifier` steps 1-3), so such a refusal says nothing
        /// of whether the rest decodes. OpenSSL: `d2i_PKCS7` fails.
        case parse
        /// The signer's signature: the signer certificate, the message digest and the
        /// RSA signature (ours: `SignedDataVerifier.Step.signature`; OpenSSL:
        /// `PKCS7_verify` with `PKCS7_NOVERIFY`).
        case signature
        /// The signer's chain to the anchor at the validation time.
        case chain

        public static func < (lhs: Refusal, rhs: Refusal) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String { ["parse", "signature", "chain"][rawValue] }

        /// The step at which our verdict refused, nil for a valid one.
        public init?(ours verdict: Verdict, step: SignedDataVerifier.Step) {
            switch (verdict.reason, step) {
            case (.valid, _): return nil
            case (.malformed, _), (.unsupportedAlgorithm, .signature): self = .parse
            case (_, .signature): self = .signature
            case (_, .chain): self = .chain
            }
        }

        /// The step at which OpenSSL refused, nil when it verifies.
        public init?(openSSL outcome: OpenSSLOutcome) {
            switch outcome {
            case .verified: return nil
            case .unparseable, .noFile: self = .parse
            case .signatureInvalid: self = .signature
            case .chainInvalid: self = .chain
            }
        }
    }

    public enum Agreement: Hashable, Sendable {
        case agree
        /// An intentional difference, documented in `whitelist` under our reason.
        case whitelisted(VerdictReason)
        /// A real disagreement; the text says which.
        case difference(String)
    }

    public struct Outcome: Sendable {
        /// Our signature-and-chain verdict (container parse failures are `malformed`).
        public let ours: Verdict
        /// The step at which we refused (nil: valid).
        public let ourRefusal: Refusal?
        public let openSSL: OpenSSLOutcome
        public let agreement: Agreement

        /// `ours/theirs`, e.g. `valid/chain-invalid`: the stable part of a finding.
        public var signature: String { "\(ours.reason.rawValue)/\(openSSL.rawValue)" }
    }

    /// Our verdicts that may differ from OpenSSL's, and why: `valid` where OpenSSL
    /// refuses the chain, the others where OpenSSL verifies.
    public static let whitelist: [VerdictReason: String] = [
        .valid: "path building: when the receipt holds two candidate issuers with the same name and key (a "
            + "cross-certified intermediate), OpenSSL takes the first one and does not backtrack if its chain dead-ends; "
            + "we search every path. Whitelisted only when OpenSSL's X509_verify_cert accepts the exact chain we built",
        .malformed: "our parser is strict where d2i_PKCS7/d2i_X509 are lenient: trailing bytes after the "
            + "ContentInfo, DER-only rules and RFC 5280 limits inside certificates (string types, serial length, "
            + "algorithm parameters, empty extension lists), exactly one SignerInfo, eContentType id-data, no CRLs, the "
            + "signer's digest listed in digestAlgorithms, the container's SET OF and SEQUENCE OF constructed as X.690 "
            + "8.10 and 8.12 require (digestAlgorithms, certificates, signerInfos, attributes, the signer's issuer Name; "
            + "OpenSSL's decoder never checks that bit), and RFC 5280 semantics for the certificates the signature and "
            + "the chain use (one nobody uses needs only d2i_X509's syntax, as in OpenSSL: CertificateSyntax)",
        .unsupportedAlgorithm: "receipts use only SHA-1/SHA-256 with RSA PKCS#1 v1.5 and 1024-4096-bit keys; OpenSSL "
            + "accepts any digest (SHA-512 …), ignores the SignerInfo's signatureAlgorithm entirely, and accepts other key sizes",
    ]

    public let anchorDER: [UInt8]
    public let verifier: SignedDataVerifier

    /// `anchorDER`: one DER certificate, the only trust anchor of both sides.
    public init(anchorDER: [UInt8]) throws(CertificateError) {
        self.anchorDER = anchorDER
        let anchors = [try Certificate(anchorDER, rules: .der)]
        verifier = SignedDataVerifier(chainVerifier: ChainVerifier(anchors: anchors, policies: ChainVerifier.defaultPolicies))
    }

    /// Both verdicts on `bytes` with the chain validated at `seconds` since 1970.
    public func compare(_ bytes: [UInt8], atSecondsSince1970 seconds: Int64, cache: SignatureCache? = nil) -> Outcome {
        let ours: Verdict
        let step: SignedDataVerifier.Step
        do {
            (ours, step) = verifier.verifyReportingStep(try PKCS7SignedData(bytes: bytes), at: ASN1Time(secondsSince1970: seconds),
                                                        cache: cache)
        } catch {
            (ours, step) = (Verdict(.malformed, error.description), .signature)
        }
        let code = bytes.withUnsafeBufferPointer { receipt in
            anchorDER.withUnsafeBufferPointer { anchor in
                rf_pkcs7_verify(receipt.baseAddress, receipt.count, anchor.baseAddress, anchor.count, seconds)
            }
        }
        let theirs: OpenSSLOutcome
        switch Int(code) {
        case Int(RF_PKCS7_OK): theirs = .verified
        case Int(RF_PKCS7_SIGNATURE_INVALID): theirs = .signatureInvalid
        case Int(RF_PKCS7_CHAIN_INVALID): theirs = .chainInvalid
        default: theirs = .unparseable
        }
        let ourRefusal = Refusal(ours: ours, step: step)
        let agreement: Agreement
        if ours.isValid && theirs == .chainInvalid && !openSSLAcceptsChain(ours.chain, atSecondsSince1970: seconds) {
            agreement = .difference("we verify, OpenSSL says \(theirs.rawValue)")
        } else {
            agreement = Self.agreement(ours: ours, step: step, theirs: theirs)
        }
        return Outcome(ours: ours, ourRefusal: ourRefusal, openSSL: theirs, agreement: agreement)
    }

    /// The comparison itself: our verdict and the step that gave it against OpenSSL's
    /// outcome. (A valid verdict against OpenSSL's `chain-invalid` comes here only once
    /// OpenSSL accepted the exact chain we built.)
    public static func agreement(ours: Verdict, step: SignedDataVerifier.Step, theirs: OpenSSLOutcome) -> Agreement {
        switch (Refusal(ours: ours, step: step), Refusal(openSSL: theirs)) {
        case (nil, nil):
            return .agree
        case (nil, .chain?):
            return .whitelisted(.valid)
        case (nil, _?):
            return .difference("we verify, OpenSSL says \(theirs.rawValue)")
        case (_?, nil):
            return whitelist[ours.reason] != nil ? .whitelisted(ours.reason) : .difference("we refuse (\(ours)), OpenSSL verifies")
        case (let our?, let their?):
            if our == their { return .agree }
            if our < their && whitelist[ours.reason] != nil { return .whitelisted(ours.reason) }
            return .difference("both refuse, we at the \(our) step (\(ours)), OpenSSL at the \(their) step (\(theirs.rawValue))")
        }
    }

    /// True if OpenSSL verifies `chain` (signer first, anchor last, as a valid verdict
    /// carries it) when handed exactly those certificates.
    func openSSLAcceptsChain(_ chain: [Certificate], atSecondsSince1970 seconds: Int64) -> Bool {
        let certificates = chain.dropLast().flatMap { Array($0.encoded) }
        return certificates.withUnsafeBufferPointer { chainBuffer in
            anchorDER.withUnsafeBufferPointer { anchor in
                rf_x509_verify_chain(chainBuffer.baseAddress, chainBuffer.count, anchor.baseAddress, anchor.count, seconds)
            }
        } == 1
    }
}
