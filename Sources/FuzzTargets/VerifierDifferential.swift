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
/// `whitelist`, where we are stricter on purpose.
public struct VerifierDifferential: Sendable {
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
            + "signer's digest listed in digestAlgorithms, and every certificate in the receipt must parse",
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
        do {
            ours = verifier.verify(try PKCS7SignedData(bytes: bytes), at: ASN1Time(secondsSince1970: seconds), cache: cache)
        } catch {
            ours = Verdict(.malformed, error.description)
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
        let agreement: Agreement
        switch (ours.isValid, theirs == .verified) {
        case (true, true), (false, false):
            agreement = .agree
        case (true, false):
            agreement = theirs == .chainInvalid && openSSLAcceptsChain(ours.chain, atSecondsSince1970: seconds)
                ? .whitelisted(.valid)
                : .difference("we verify, OpenSSL says \(theirs.rawValue)")
        case (false, true):
            agreement = Self.whitelist[ours.reason] != nil
                ? .whitelisted(ours.reason)
                : .difference("we refuse (\(ours)), OpenSSL verifies")
        }
        return Outcome(ours: ours, openSSL: theirs, agreement: agreement)
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
